import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, vi } from "vitest";
import { builtinHarnessArgs, Controller, writeScript } from "./local-controller.js";

const PRELOAD = fileURLToPath(new URL("./fixtures/journal-pause-preload.mjs", import.meta.url));
const PHASES = ["partial", "written", "synced"] as const;

/** The ids the harness executed; it writes its log on its first command, which may not have come yet. */
function executed(log: string): string[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { commandId: string }).commandId);
}

/** Resolves once the daemon says on stderr that it stopped at `phase`. */
async function pausedAt(controller: Controller, phase: string): Promise<void> {
  await vi.waitFor(() => expect(controller.stderr).toContain(`paused at ${phase}`), {
    timeout: 30_000,
    interval: 20,
  });
}

// Real processes on a busy 2-core machine.
describe("a daemon killed at each phase of a journal append", { timeout: 90_000 }, () => {
  it.each(PHASES)(
    "%s: the turn's pending record is never acted on twice, and every id gets one answer",
    async (phase) => {
      const dir = tempDirForTest(`runner-journal-${phase}-`);
      const stateDir = join(dir, "state");
      const log = join(dir, "commands.log");
      const script = writeScript(dir, {
        commandLog: log,
        steps: [{ ready: {} }],
        on: { "turn.start": [{ event: { eventType: "turn.completed", turnId: "{{commandId}}" } }] },
      });
      const args = builtinHarnessArgs(script, ["--state-dir", stateDir]);

      const first = new Controller(args, {
        ...process.env,
        // A URL: NODE_OPTIONS splits on spaces, and a checkout path may contain one.
        NODE_OPTIONS: `--import=${pathToFileURL(PRELOAD).href}`,
        JOURNAL_PAUSE_AT: phase,
        JOURNAL_PAUSE_MATCH: '"commandId":"c3","controllerSeq":3,"type":"turn.start","fingerprint"',
      });
      first.send("run.prepare", "c1");
      first.send("session.open", "c2");
      await first.waitForReceipt("c2");
      first.send("turn.start", "c3");
      await pausedAt(first, phase);
      first.kill("SIGKILL");
      await first.exited;
      // Stopped before its effect: the harness never saw c3, and c3 got no receipt.
      expect(executed(log)).not.toContain("c3");
      expect(first.receiptFor("c3")).toEqual([]);

      const second = new Controller(args);
      const reconciled = await second.waitForEvent("runner.reconciled");
      second.send("turn.start", "c3", {}, 3);
      const receipt = await second.waitForReceipt("c3");
      if (phase === "partial") {
        // The torn record never counted: c3 is new to the journal, and runs now, for the first time.
        expect(reconciled.payload).toMatchObject({ indeterminateCommands: [] });
        expect(receipt).toMatchObject({ status: "accepted" });
        await second.waitForEvent("turn.completed");
        expect(executed(log).filter((id) => id === "c3")).toEqual(["c3"]);
      } else {
        // The pending record reached the file: c3 is indeterminate for good, and never runs.
        expect(reconciled.payload).toMatchObject({ indeterminateCommands: ["c3"] });
        expect(receipt).toMatchObject({ status: "duplicate", original: { status: "indeterminate" } });
        expect(executed(log)).not.toContain("c3");
      }
      second.send("runner.shutdown", "c4", {}, 4);
      await second.waitForEvent("run.terminal");
      expect((await second.exited).code).toBe(0);
    },
  );
});
