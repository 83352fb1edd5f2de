import { writeFileSync } from "node:fs";
import path from "node:path";
import { caughtSync } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { readNodeBridgeBuild } from "./write-bridge.js";

describe("readNodeBridgeBuild", () => {
  it("reads the built bridge's bytes", () => {
    const buildPath = path.join(tempDirForTest("paperclip-bridge-build-"), "node-bridge.cjs");
    writeFileSync(buildPath, "'use strict';\n");
    expect(readNodeBridgeBuild(buildPath).toString()).toBe("'use strict';\n");
  });

  it("says a missing build is a broken install, with ERR_SANDBOX_NODE_BRIDGE_MISSING and the path", () => {
    const buildPath = path.join(tempDirForTest("paperclip-bridge-build-"), "dist", "node-bridge.cjs");
    const error = caughtSync(() => readNodeBridgeBuild(buildPath), "ERR_SANDBOX_NODE_BRIDGE_MISSING");
    expect(error.message).toBe(
      `The sandbox's Node bridge is missing from this installation (${buildPath}); reinstall or rebuild @paperclipai/adapter-utils.`,
    );
    expect(error.details).toEqual({ path: buildPath });
  });
});
