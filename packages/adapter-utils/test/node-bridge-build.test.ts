import { readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { Script } from "node:vm";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  BRIDGE_FILE_NAME,
  nodeBridgeBuildPath,
  writeNetworkProxyBridge,
} from "../src/bridge/write-bridge.js";

describe("the built Node bridge (dist/node-bridge.cjs)", () => {
  it("is one CommonJS script that requires Node built-ins only", () => {
    const source = readFileSync(nodeBridgeBuildPath(), "utf8");
    expect(() => new Script(source, { filename: BRIDGE_FILE_NAME })).not.toThrow();
    const required = [...source.matchAll(/\brequire\(([^)]*)\)/g)].map((match) => match[1]);
    expect(required.length).toBeGreaterThan(0);
    for (const specifier of required) {
      // Only literal node: specifiers: the copy in the run's directory has nothing beside it to load.
      expect(specifier).toMatch(/^"node:[a-z_/]+"$/);
      expect(builtinModules).toContain(JSON.parse(specifier!).slice("node:".length));
    }
    expect(source).not.toMatch(/\bimport\s*\(/);
  });

  it("is copied byte for byte into the run's directory, read+execute for its owner only", async () => {
    const dir = tempDirForTest();
    const written = await writeNetworkProxyBridge(dir);
    expect(written).toBe(`${dir}/${BRIDGE_FILE_NAME}`);
    expect(readFileSync(written)).toEqual(readFileSync(nodeBridgeBuildPath()));
    expect(statSync(written).mode & 0o777).toBe(0o500);
  });
});
