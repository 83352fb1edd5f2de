import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { type RunProcessResult, runChildProcess } from "../src/spawn/run-child-process.js";
import { buildStaticFixture } from "./attack-support.js";
import { cleanupAll, onCleanup } from "./sandbox-support.js";
import { scopeMatrixWorkspace } from "./scope-matrix.js";

afterEach(cleanupAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;

function run(name: string, ws: string, scope: Scope, args: string[], timeoutSec: number) {
  return runChildProcess(name, args[0]!, args.slice(1), {
    cwd: ws,
    env: {},
    timeoutSec,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ws, ...scope },
  });
}

/**
 * Run "taker" listens on `socket` and holds what it is sent until `release` exists (or its
 * own timeout, far beyond any honest end of the other run); run "giver" sends it its stdout
 * and stderr and exits at once. The giver's run must end while the taker still holds them.
 */
async function handOver(
  giverWs: string,
  takerWs: string,
  scope: Scope,
  socket: string,
): Promise<{ giver: RunProcessResult; takerStillRunning: boolean; taker: RunProcessResult }> {
  const binary = await buildStaticFixture("hand-over-output", takerWs);
  if (giverWs !== takerWs) await buildStaticFixture("hand-over-output", giverWs);
  const release = path.join(takerWs, "release");
  onCleanup(() => writeFile(release, ""));
  let takerDone = false;
  const taker = run("taker", takerWs, scope, [binary, "take", socket, release], 20).finally(() => {
    takerDone = true;
  });
  const giver = await run(
    "giver",
    giverWs,
    scope,
    [path.join(giverWs, "hand-over-output"), "give", socket],
    30,
  );
  const takerStillRunning = !takerDone;
  await writeFile(release, "");
  return { giver, takerStillRunning, taker: await taker };
}

describe("a run's output pipes handed to a process outside the run", () => {
  // After bwrap exits, the whole sandbox is dead, so whatever holds its stdout or stderr
  // open is outside the run: another sandbox the program passed them to (SCM_RIGHTS) over a
  // Unix socket both can reach. Waiting for their end of file made the run's result, and its
  // cleanup, wait for that other process (here its timeout; with `timeoutSec: 0`, for good).
  const SHARED_WORKSPACE: Record<string, Scope> = {
    workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
    networkOnlyDeny: { networkScope: "deny" },
  };

  for (const [name, scope] of Object.entries(SHARED_WORKSPACE)) {
    it(`do not hold the run's end: two runs of one workspace, ${name}`, async () => {
      const ws = await scopeMatrixWorkspace("root", "pc-sbx-held-output-");
      const seen = await handOver(ws, ws, scope, path.join(ws, "handover.sock"));
      expect(seen.giver.exitCode, seen.giver.stderr).toBe(0);
      expect(seen.giver.stdout).toContain("given");
      expect(seen.takerStillRunning).toBe(true);
      expect(seen.taker.exitCode, seen.taker.stderr).toBe(0);
      expect(seen.taker.timedOut).toBe(false);
      expect(seen.taker.stdout).toBe("listening\nholding\n");
    }, 60_000);
  }

  it("do not hold the run's end: runs of two workspaces meeting on a host abstract socket", async () => {
    // Without a network scope the sandbox shares the host's abstract Unix namespace.
    const scope: Scope = { filesystemScope: "workspace" };
    const giverWs = await scopeMatrixWorkspace("root", "pc-sbx-held-output-giver-");
    const takerWs = await scopeMatrixWorkspace("root", "pc-sbx-held-output-taker-");
    const seen = await handOver(
      giverWs,
      takerWs,
      scope,
      `@pc-sbx-held-output-${randomBytes(6).toString("hex")}`,
    );
    expect(seen.giver.exitCode, seen.giver.stderr).toBe(0);
    expect(seen.takerStillRunning).toBe(true);
    expect(seen.taker.exitCode, seen.taker.stderr).toBe(0);
    expect(seen.taker.timedOut).toBe(false);
  }, 60_000);
});
