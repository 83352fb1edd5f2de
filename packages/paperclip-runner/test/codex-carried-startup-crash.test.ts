import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  closeSteps,
  driveCodexRunner,
  expectContiguousOnce,
  openSteps,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { PERSIST_PAUSE_PRELOAD } from "./helpers/persist-pause.js";

// Startup facts a suspend carried to the next run (`codex-provider-state.json` `pendingEvents`), or
// that a runner SIGKILLed while it held them had saved there as they came, are committed by the
// next run's runner in three writes of two files: the provider state saying which seq
// the first takes, then durable mode's outbox, then the provider state forgetting them. A runner
// killed between them must leave each fact committed exactly once by the next.
const toolchain = serverToolchainForFile();

const firstRunEnds = [
  { end: "a suspend", steps: [{ op: "queue", type: "runner.suspend", id: "suspend-1" }, { op: "exit" }] },
  { end: "a SIGKILL", steps: [{ op: "sigkill" }] },
] as const;
const windows = [
  {
    window: "after the release was recorded, before the facts reached durable mode's outbox",
    file: "codex-provider-state.json",
    // The write recording the release (its seq, whatever events came before).
    pattern: '"pendingEventsReleaseFirstSeq":\\d',
  },
  {
    window: "after the facts reached durable mode's outbox, before the provider state forgot them",
    file: "runner-state.json",
    pattern: "provider_startup_ownership",
  },
];
const killWindows = firstRunEnds.flatMap(({ end, steps }) =>
  windows.map((window) => ({ ...window, end, firstRunEnd: steps })),
);

describe("facts carried to the next run, its runner killed while it commits them", {
  timeout: 120_000,
}, () => {
  it.each(killWindows)(
    "first run ended by $end, $window: each is committed once",
    async ({ file, pattern, firstRunEnd }) => {
      await withWork(async (work) => {
        const launcherEnv = {
          // A URL: NODE_OPTIONS splits on spaces, and a checkout path may contain one.
          NODE_OPTIONS: `--import=${pathToFileURL(PERSIST_PAUSE_PRELOAD).href}`,
          PERSIST_PAUSE_AT: "renamed",
          PERSIST_PAUSE_FILE: file,
          PERSIST_PAUSE_PATTERN: pattern,
          PERSIST_PAUSE_ONCE: path.join(work, "paused"),
        };
        const result = await driveCodexRunner(
          toolchain(),
          work,
          [
            ...openSteps(work),
            { op: "queue", type: "runner.drain", id: "drain-1" },
            { op: "command", id: "drain-1" },
            ...firstRunEnd,
            { op: "restart" },
            { op: "queue", type: "runner.drain", id: "resume-probe" },
            { op: "command", id: "resume-probe" },
            // The turn's acceptance releases the carried facts; the runner stops in the middle.
            { op: "queue", type: "turn.start", payload: { text: "first" }, id: "turn-1" },
            { op: "fileContains", path: "paused", text: "paused at renamed" },
            { op: "sigkill" },
            { op: "restart" },
            { op: "queue", type: "runner.drain", id: "probe-after-kill" },
            { op: "command", id: "probe-after-kill" },
            { op: "queue", type: "turn.start", payload: { text: "again" }, id: "turn-2" },
            { op: "command", id: "turn-2" },
            { op: "event", type: "run.terminal", count: 2 },
            ...closeSteps,
          ],
          { launcherEnv },
        );
        expect(result.failure).toBeNull();
        expect(result.invalid).toEqual([]);
        expect(expectContiguousOnce(result)).toBe(true);
        // Three provider launches (the open, run 2's resume, run 3's), each fact of each exactly once.
        const facts = result.committed
          .filter((event) => event.payload.code === "provider_startup_ownership")
          .map((event) => {
            const startup = event.payload.startup as Record<string, unknown>;
            const command = startup.command as Record<string, unknown>;
            return `${String(command.commandId)}:${String(startup.phase)}:${String(startup.launchId)}`;
          });
        expect(new Set(facts).size).toBe(facts.length);
        expect(facts.map((fact) => fact.split(":").slice(0, 2).join(":")).sort()).toEqual([
          "open:intent",
          "open:spawned",
          "probe-after-kill:intent",
          "probe-after-kill:spawned",
          "resume-probe:intent",
          "resume-probe:spawned",
        ]);
        const state = JSON.parse(
          await readFile(path.join(work, "runner", "codex-provider-state.json"), "utf8"),
        ) as Record<string, unknown>;
        expect(state.pendingEvents).toEqual([]);
        expect(state.pendingEventsReleaseFirstSeq).toBeNull();
      });
    },
  );
});
