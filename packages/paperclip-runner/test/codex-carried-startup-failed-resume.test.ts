import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  driveCodexRunner,
  expectContiguousOnce,
  fakeCodexArgs,
  openSteps,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { drain } from "./helpers/startup-release-differential.js";

// Facts a suspend carried to the next run, whose runner cannot resume Codex on the probe (its
// recovery fails): a later command that starts Codex (a `turn.start`) holds its own facts behind
// them, and both are committed once, `pendingEvents` emptied (the server's close waits on it).
const toolchain = serverToolchainForFile();

/** Each startup fact as `command:phase`, in commit order. */
function startupFacts(committed: readonly { payload: Record<string, unknown> }[]): string[] {
  return committed
    .filter((event) => event.payload.code === "provider_startup_ownership")
    .map((event) => {
      const startup = event.payload.startup as Record<string, unknown>;
      const command = startup.command as Record<string, unknown>;
      return `${String(command.commandId)}:${String(startup.phase)}`;
    });
}

describe("facts carried to a run whose resume fails", { timeout: 120_000 }, () => {
  it("commits them once, with the facts of the turn that starts Codex again", async () => {
    await withWork(async (work) => {
      const prepare = codexPrepare(work, { args: fakeCodexArgs("fail-first-resume") });
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, prepare),
        ...drain("drain-1"),
        { op: "queue", type: "runner.suspend", id: "suspend-1" },
        { op: "exit" },
        { op: "restart" },
        ...drain("resume-probe"),
        { op: "queue", type: "turn.start", payload: { text: "first" }, id: "turn-1" },
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      expect(expectContiguousOnce(result)).toBe(true);
      // The probe's start failed before any fact of its own.
      expect(result.committed.map((event) => event.payload.code)).toContain("provider_start_failed");
      expect(startupFacts(result.committed)).toEqual([
        "open:intent",
        "open:spawned",
        "turn-1:intent",
        "turn-1:spawned",
      ]);
      const state = JSON.parse(
        await readFile(path.join(work, "runner", "codex-provider-state.json"), "utf8"),
      ) as Record<string, unknown>;
      expect(state.pendingEvents).toEqual([]);
    });
  });
});
