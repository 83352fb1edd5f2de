import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { spawnTarget } from "./attack-support.js";
import { cleanupAll, onCleanup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The Node bridge runs the program under `/bin/sh`, which keeps its exit status
 * (status-keeping-shell.ts). That shell must add nothing of its own: dash reports a child a
 * signal killed on its stderr ("Terminated", "Real-time signal 6"), the program's, so every
 * timeout kill added text the program never wrote; and `"$@"` with a bare name ran the
 * shell's builtin of that name (`echo`, `printf`, `kill`, `test`), not the binary execvp
 * finds (dash's `echo` prints `-e`). The native bridge, which execs the program itself, is
 * the reference.
 */

const BRIDGES = ["native", "node"] as const;

function allowlist(
  workspaceDir: string,
  networkBridge: (typeof BRIDGES)[number],
): LocalProcessSandboxOptions {
  return {
    workspaceDir,
    filesystemScope: "workspace",
    networkScope: "allowlist",
    networkAllowlist: ["127.0.0.1:1"],
    networkBridge,
  };
}

describe("what the program gets through each bridge, and nothing else", () => {
  it.each(BRIDGES)(
    "%s bridge: a program killed by a signal has exactly its own stderr",
    async (bridge) => {
      for (const n of [15, 40]) {
        const ws = scratchDir("pc-sbx-own-stderr-");
        const result = await runChildProcess("own-stderr", "/bin/sh", ["-c", `echo own >&2; kill -${n} $$`], {
          cwd: ws,
          env: {},
          timeoutSec: 20,
          graceSec: 1,
          onLog: async () => {},
          localProcessSandbox: { command: "/usr/bin/bwrap", ...allowlist(ws, bridge) },
        });
        expect(
          { exitCode: result.exitCode, stderr: result.stderr, stdout: result.stdout },
          `signal ${n}`,
        ).toEqual({
          exitCode: 128 + n,
          stderr: "own\n",
          stdout: "",
        });
      }
    },
    60_000,
  );

  it.each(BRIDGES)(
    "%s bridge: a bare program name runs the binary execvp finds, not a shell builtin",
    async (bridge) => {
      const ws = scratchDir("pc-sbx-bare-name-");
      const target = await buildLocalProcessSandboxSpawnTarget({
        executable: "echo",
        args: ["-e", "a\\tb"],
        cwd: ws,
        options: allowlist(ws, bridge),
      });
      onCleanup(() => target.cleanup?.() ?? Promise.resolve());
      const binary = execFileSync("/bin/echo", ["-e", "a\\tb"], { encoding: "utf8" });
      expect(binary).toBe("a\tb\n");
      expect(await spawnTarget(target)).toEqual({ code: 0, stdout: binary, stderr: "" });
    },
    60_000,
  );
});
