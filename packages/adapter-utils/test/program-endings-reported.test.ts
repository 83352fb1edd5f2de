import { constants } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { type LocalProcessSandboxOptions, runChildProcess } from "../src/index.js";
import { COURIER_UNREACHABLE_MARK } from "../src/spawn/spawn-failure.js";
import { cleanupAll, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * How a program's end is reported through each bridge and `runChildProcess`: a death by any
 * signal 1..64 (the realtime ones included, and glibc's own 32 and 33, which the native bridge
 * cannot re-raise) and every exit status 125..255, the bridge's own 125 and the shell's 126
 * and 127 among them. None may be reported as the sandbox's failure (a thrown error), and none
 * as something else the program did not do. Each program first prints the bridge's courier
 * line without the run's token, as one that wanted its end taken for "never started" would.
 *
 * Through bwrap a death by signal N is the exit status 128+N (bwrap exits so; the Node bridge,
 * whose Node cannot name 32..64, runs the program under a shell that sees it); the stop
 * signals (19..22) stop rather than end a program, and 17, 18, 23 and 28 are ignored by
 * default, so with those the program goes on to exit 7 itself.
 */

const STOPS = new Set([19, 20, 21, 22]);
const IGNORED = new Set([17, 18, 23, 28]);
const SIGNALS = Array.from({ length: 64 }, (_, i) => i + 1).filter((n) => !STOPS.has(n));
const FORGE = `printf '%sforged: no courier\\n' '${COURIER_UNREACHABLE_MARK}' >&2`;

const SCOPES: Record<string, Omit<LocalProcessSandboxOptions, "workspaceDir"> | null> = {
  "no sandbox": null,
  "workspace scope": { filesystemScope: "workspace" },
  "network deny": { networkScope: "deny" },
  "allowlist, native bridge": {
    filesystemScope: "workspace",
    networkScope: "allowlist",
    networkAllowlist: ["127.0.0.1:1"],
  },
  "allowlist, Node bridge": {
    filesystemScope: "workspace",
    networkScope: "allowlist",
    networkAllowlist: ["127.0.0.1:1"],
    networkBridge: "node",
  },
};

async function ending(scope: string, line: string): Promise<string> {
  const sandbox = SCOPES[scope]!;
  const workspaceDir = scratchDir("pc-sbx-endings-");
  try {
    const result = await runChildProcess("endings", "/bin/sh", ["-c", `${FORGE}; ${line}`], {
      cwd: workspaceDir,
      env: {},
      timeoutSec: 20,
      graceSec: 1,
      onLog: async () => {},
      ...(sandbox ? { localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir, ...sandbox } } : {}),
    });
    if (result.timedOut) return "timed out";
    return result.signal ? `signal ${result.signal}` : `exit ${result.exitCode}`;
  } catch (error) {
    return `threw ${(error as { code?: string }).code}`;
  }
}

/** What the run reports for a program that sends itself signal `n`. */
function expectedForSignal(scope: string, n: number): string {
  if (IGNORED.has(n)) return "exit 7";
  if (scope !== "no sandbox") return `exit ${128 + n}`;
  // Outside a sandbox the program is Node's own child: Node names the signal when it can, and
  // reports one it cannot name (32..64) as exit 0 with no signal, a limit of Node's
  // child_process this package does not paper over (run-child-process.md).
  return n < 32 ? `signal ${signalName(n)}` : "exit 0";
}

function signalName(n: number): string {
  return Object.entries(constants.signals).find(([, number]) => number === n)![0];
}

describe("a program's end, as the run reports it", () => {
  it.each(Object.keys(SCOPES))(
    "%s: death by every signal 1..64",
    async (scope) => {
      const wrong: string[] = [];
      for (const n of SIGNALS) {
        const got = await ending(scope, `kill -${n} $$; exit 7`);
        if (got !== expectedForSignal(scope, n)) wrong.push(`${n}: ${got}`);
      }
      expect(wrong).toEqual([]);
    },
    120_000,
  );

  it.each(Object.keys(SCOPES))(
    "%s: every exit status 125..255",
    async (scope) => {
      const statuses = Array.from({ length: 131 }, (_, i) => i + 125);
      const wrong: string[] = [];
      for (const status of statuses) {
        const got = await ending(scope, `exit ${status}`);
        if (got !== `exit ${status}`) wrong.push(`${status}: ${got}`);
      }
      expect(wrong).toEqual([]);
    },
    120_000,
  );
});
