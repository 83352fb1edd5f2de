import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { BIN } from "./helpers/run-bin.js";

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

type Outcome = { readonly child: ChildProcess; readonly proceeded: boolean; readonly stderr: string };

/** Starts a local-mode daemon on `stateDir` and resolves once it proceeds (first output line) or exits. */
function daemon(stateDir: string, script: string): Promise<Outcome> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      "--run-id",
      "run-1",
      "--session-id",
      "s-1",
      "--runner-id",
      "n-1",
      "--fake-harness",
      "upstream-fake-harness",
      "--script",
      script,
      "--state-dir",
      stateDir,
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  running.push(child);
  // A fresh run writes nothing before its first command.
  child.stdin?.on("error", () => undefined);
  child.stdin?.write(
    `${JSON.stringify({ schema: "paperclip.prp.command.v1", commandId: "c1", controllerSeq: 1, type: "run.prepare", payload: {} })}\n`,
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => {
    child.stdout?.once("data", () => resolve({ child, proceeded: true, stderr }));
    child.once("close", () => resolve({ child, proceeded: false, stderr }));
  });
}

describe("two daemons on one state directory", () => {
  it("never both proceed: one holds the journal, the other stops with ERR_RUNNER_STATE_LOCKED", async () => {
    const dir = tempDirForTest();
    const script = join(dir, "script.json");
    await writeFile(script, JSON.stringify({ steps: [{ ready: {} }] }));
    for (let round = 0; round < 8; round += 1) {
      const stateDir = join(dir, `state-${round}`);
      await mkdir(stateDir, { mode: 0o700 });
      const outcomes = await Promise.all([daemon(stateDir, script), daemon(stateDir, script)]);
      const winners = outcomes.filter((outcome) => outcome.proceeded);
      expect(winners).toHaveLength(1);
      const loser = outcomes.find((outcome) => !outcome.proceeded) as Outcome;
      expect(loser.child.exitCode).toBe(1);
      expect(loser.stderr).toContain("code: ERR_RUNNER_STATE_LOCKED");
      const winner = (winners[0] as Outcome).child;
      winner.stdin?.end();
      if (winner.exitCode === null) await once(winner, "exit");
      expect(winner.exitCode).toBe(0);
    }
  }, 120_000);
});
