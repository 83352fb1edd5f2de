import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, symlinkSync } from "node:fs";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as builder from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions, LocalProcessSandboxSpawnTarget } from "../src/sandbox-options.js";
import { runInSandbox } from "./attack-support.js";

/**
 * A program of another run, writing the same workspace, swaps a checked path for a
 * relative link between the build and bwrap's mounts (docs/adapter-utils/security.md,
 * sixth pass). The swap is made deterministically right after the build: bwrap then
 * follows the link to the host's /tmp, whose listing (a marker directory) must not reach
 * the program. The spawn helper's path is driven by swapping when its own build returns.
 */

/** After each build, the swap the test asked for: every export of the builder module is wrapped (the spawn helper's seam). */
let afterBuild: (() => void) | null = null;
vi.mock("../src/build-spawn-target.js", async (original) => {
  const real = await original<Record<string, (...args: unknown[]) => Promise<unknown>>>();
  const swapped =
    (build: (...args: unknown[]) => Promise<unknown>) =>
    async (...args: unknown[]) => {
      const target = await build(...args);
      afterBuild?.();
      return target;
    };
  return Object.fromEntries(Object.entries(real).map(([name, value]) => [name, swapped(value)]));
});
afterEach(() => {
  afterBuild = null;
});

const SCOPES: Record<string, Partial<LocalProcessSandboxOptions>> = {
  workspace: { filesystemScope: "workspace" },
  "network-only deny": { networkScope: "deny" },
  "allowlist, native bridge": {
    networkScope: "allowlist",
    networkAllowlist: ["example.test"],
    networkBridge: "native",
  },
  "allowlist, Node bridge": {
    networkScope: "allowlist",
    networkAllowlist: ["example.test"],
    networkBridge: "node",
  },
};

/** A workspace with `cfg` (a read-only extra path), the swap to `../…/tmp`, and a marker in the host's /tmp. */
function setting(scope: Partial<LocalProcessSandboxOptions>) {
  const marker = path.basename(tempDirForTest("pc-host-tmp-marker-", { base: "/tmp" }));
  const ws = tempDirForTest("pc-bind-race-ws-", { base: "/var/tmp" });
  const cfg = path.join(ws, "cfg");
  mkdirSync(cfg);
  const options: LocalProcessSandboxOptions = {
    command: "/usr/bin/bwrap",
    workspaceDir: ws,
    extraPaths: [{ path: cfg, access: "ro" }],
    ...scope,
  };
  const swap = () => {
    renameSync(cfg, path.join(ws, "cfg.checked"));
    symlinkSync(`${path.relative(ws, "/")}/tmp`, cfg);
  };
  return { marker, ws, cfg, options, swap };
}

describe.each(Object.entries(SCOPES))(
  "a checked bind swapped for a link before bwrap mounts it (%s)",
  (_, scope) => {
    it("the argv a caller spawns refuses to run the program, exit 122 and the destination named", async () => {
      const { marker, ws, cfg, options, swap } = setting(scope);
      const target: LocalProcessSandboxSpawnTarget = await builder.buildLocalProcessSandboxSpawnTarget({
        executable: "/bin/ls",
        args: [`${cfg}/`, "/tmp"],
        cwd: ws,
        options,
      });
      try {
        swap();
        const run = spawnSync(target.command, target.args, {
          cwd: target.cwd,
          env: target.env,
          encoding: "utf8",
        });
        expect(run.stdout).not.toContain(marker);
        expect(run.status).toBe(122);
        expect(run.stderr).toMatch(/^paperclip-sandbox: ERR_SANDBOX_BIND_CHANGED: \//m);
      } finally {
        await target.cleanup?.();
      }
    });

    it("the spawn helper reports ERR_SANDBOX_BIND_CHANGED and the program never lists the host's /tmp", async () => {
      const { marker, ws, cfg, options, swap } = setting(scope);
      afterBuild = swap;
      let seen: string;
      try {
        const result = await runInSandbox(ws, options, "/bin/ls", [`${cfg}/`, "/tmp"]);
        seen = `${result.stdout}${result.stderr}`;
      } catch (error) {
        if (!PaperclipError.is(error)) throw error;
        seen = error.code;
      }
      expect(seen).not.toContain(marker);
      expect(seen).toBe("ERR_SANDBOX_BIND_CHANGED");
    });
  },
);

it("an untouched bind runs as before", async () => {
  const { ws, cfg, options } = setting(SCOPES.workspace as Partial<LocalProcessSandboxOptions>);
  const result = await runInSandbox(ws, options, "/bin/ls", [cfg]);
  expect(result.exitCode).toBe(0);
});
