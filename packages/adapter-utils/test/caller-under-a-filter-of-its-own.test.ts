/**
 * Tenth pass (docs/adapter-utils/security.md): a caller that itself runs under a seccomp
 * filter (a container runtime's default profile, a service manager's `SystemCallFilter=`,
 * Kubernetes' `RuntimeDefault`) and spawns the argv of `buildLocalProcessSandboxSpawnTarget`.
 * Its filter is inherited through bwrap into the sandbox; the exec shim and the native bridge
 * took any filter they found for bwrap's `--seccomp` and loaded none of their own, so the
 * program ran without the package's deny list (it made a user namespace, as uid 65534 too).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { EXEC_SHIM_FILE_NAME } from "../src/bridge/native-bridge-path.js";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { assemble, encode } from "../src/seccomp/bpf-program.js";
import { SECCOMP_RET_ALLOW } from "../src/seccomp/sandbox-filter.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { cleanupAll, type ExecResult, packageDir } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

/** The built exec shim, here only to put the caller under a filter (its own job, outside a sandbox). */
const shim = path.join(packageDir, "dist", "native", `linux-${process.arch}`, EXEC_SHIM_FILE_NAME);
/** A filter that allows everything: the weakest profile a caller's runtime could hold it under. */
const ALLOW_ALL = encode(assemble([{ op: "return", value: SECCOMP_RET_ALLOW }])).toString("hex");
/** How many filters hold the program, and whether it can make a user namespace (the deny list refuses it). */
const PROBE = [
  "-c",
  'grep "^Seccomp_filters:" /proc/self/status; unshare -U true 2>/dev/null && echo unshared || echo refused',
];

/** Runs `command` under the allow-all filter (loaded by the shim, which then becomes it), as a contained caller does. */
function runUnderCallerFilter(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(shim, [command, ...args], {
      env: { ...env, PAPERCLIP_SANDBOX_SECCOMP: ALLOW_ALL },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

describe.each(Object.entries(SCOPE_MATRIX))("a caller under a seccomp filter of its own (%s)", (_, scope) => {
  it("spawns the argv itself: the program still runs under the package's filter, on top of the caller's", async () => {
    const ws = tempDirForTest("pc-sbx-caller-filter-");
    const env = { PATH: "/usr/bin:/bin", HOME: ws };
    const target = await buildLocalProcessSandboxSpawnTarget({
      executable: "/bin/sh",
      args: PROBE,
      cwd: ws,
      options: {
        command: "/usr/bin/bwrap",
        workspaceDir: ws,
        ...(scope as Omit<LocalProcessSandboxOptions, "workspaceDir">),
      },
      env,
    });
    try {
      const run = await runUnderCallerFilter(target.command, target.args, { ...env, ...target.env });
      expect(run, run.stderr).toMatchObject({ code: 0, stdout: "Seccomp_filters:\t2\nrefused\n" });
    } finally {
      await target.cleanup?.();
    }
  });
});

describe.each(Object.entries(SCOPE_MATRIX))("the spawn helper's runs (%s)", (_, scope) => {
  it("hold the package's filter once: bwrap's --seccomp loads it, and neither the shim nor the bridge again", async () => {
    const ws = tempDirForTest("pc-sbx-caller-filter-");
    const result = await runChildProcess("caller-filter", "/bin/sh", PROBE, {
      cwd: ws,
      env: {},
      timeoutSec: 30,
      graceSec: 1,
      onLog: async () => {},
      localProcessSandbox: {
        command: "/usr/bin/bwrap",
        workspaceDir: ws,
        ...(scope as Omit<LocalProcessSandboxOptions, "workspaceDir">),
      },
    });
    expect(result.stderr).toBe("");
    // The test's own process holds no filter: the package's is the only one.
    expect(result.stdout).toBe("Seccomp_filters:\t1\nrefused\n");
  });
});
