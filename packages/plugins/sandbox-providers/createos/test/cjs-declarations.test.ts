import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const typeRoots = fileURLToPath(new URL("../../../../../node_modules/@types", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/**
 * A TypeScript consumer of the built package, compiled with the library check on (tsc's
 * default: `skipLibCheck` false), so the package's own declarations are checked too. The
 * package is linked into the consumer's node_modules as npm would install it.
 */
function typecheckConsumer(file: string, source: string): string {
  const app = tempDirForTest("createos-cjs-types-");
  mkdirSync(join(app, "node_modules", "@paperclipai"), { recursive: true });
  symlinkSync(packageDir, join(app, "node_modules", "@paperclipai", "plugin-createos"), "dir");
  writeFileSync(join(app, file), source);
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "node16",
        moduleResolution: "node16",
        target: "es2022",
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ["node"],
        typeRoots: [typeRoots],
      },
      files: [file],
    }),
  );
  const result = spawnSync(process.execPath, [tsc, "-p", app], { encoding: "utf8" });
  return `${result.stdout}${result.stderr}exit ${result.status}`;
}

const everyEntry = [
  'import plugin = require("@paperclipai/plugin-createos");',
  'import client = require("@paperclipai/plugin-createos/client");',
  'import manifest = require("@paperclipai/plugin-createos/manifest");',
  'import worker = require("@paperclipai/plugin-createos/worker");',
  "export const used = [plugin.PLUGIN_ID, client.DEFAULT_API_URL, manifest.manifest.id, worker];",
  "",
].join("\n");

describe("the CJS declarations (dist/*.d.cts)", () => {
  // The SDK is ESM-only: a plain import of it in a .d.cts is TS1479 for a CommonJS consumer.
  // The SDK's types make this one tsc run long on a loaded machine: the timeout is a hang guard.
  it("type-check in a CommonJS consumer under node16", { timeout: 180_000 }, () => {
    expect(typecheckConsumer("probe.cts", everyEntry)).toBe("exit 0");
  });
});
