import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runInSandbox } from "./attack-support.js";

/**
 * In the workspace scope a requested path is bound at the caller's spelling: when that is a
 * link inside a directory also bound, bwrap follows it and mounts on its target. The exec
 * shim checks each bind where bwrap mounted it (bind-check.h follows the destination), so
 * such a run starts as it did before the check existed.
 */
async function listed(options: LocalProcessSandboxOptions, ws: string, shown: string): Promise<string> {
  const result = await runInSandbox(ws, options, "/bin/ls", [`${shown}/`]);
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

it("an extra path that is a link inside the workspace runs (workspace scope)", async () => {
  const ws = tempDirForTest("pc-bind-link-ws-", { base: "/var/tmp" });
  mkdirSync(path.join(ws, "cfg"));
  writeFileSync(path.join(ws, "cfg", "settings"), "");
  symlinkSync("cfg", path.join(ws, "cfg2"));
  const options: LocalProcessSandboxOptions = {
    command: "/usr/bin/bwrap",
    filesystemScope: "workspace",
    workspaceDir: ws,
    extraPaths: [{ path: path.join(ws, "cfg2"), access: "ro" }],
  };
  expect(await listed(options, ws, path.join(ws, "cfg2"))).toBe("settings\n");
});

it("a managed path that is a link inside another managed path runs (workspace scope)", async () => {
  const ws = tempDirForTest("pc-bind-link-ws-", { base: "/var/tmp" });
  const home = tempDirForTest("pc-bind-link-home-", { base: "/var/tmp" });
  mkdirSync(path.join(home, "dot", "cfg"), { recursive: true });
  writeFileSync(path.join(home, "dot", "cfg", "settings"), "");
  symlinkSync("dot/cfg", path.join(home, ".cfg"));
  const options: LocalProcessSandboxOptions = {
    command: "/usr/bin/bwrap",
    filesystemScope: "workspace",
    workspaceDir: ws,
    managedPaths: [
      { path: home, access: "ro" },
      { path: path.join(home, ".cfg"), access: "ro" },
    ],
  };
  expect(await listed(options, ws, path.join(home, ".cfg"))).toBe("settings\n");
});
