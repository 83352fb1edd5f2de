import { appendFileSync, chmodSync, linkSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { RECEIPT_COALESCE_MS } from "../src/local/run-ledger.js";
import { appendEvent } from "../src/state/append-event.js";
import { JOURNAL_FILE_NAME } from "../src/state/journal-file.js";
import { withJournalEntry } from "../src/state/journal-lookup.js";
import { journalLine, parseJournal, snapshotDigest } from "../src/state/parse-journal.js";
import { parseRunnerState } from "../src/state/parse-runner-state.js";
import { type RunnerState, STATE_FILE_NAME } from "../src/state/runner-state.js";
import {
  JOURNAL_COMPACT_BYTES,
  openDurableStateStore,
  readStoredState,
  type StateStore,
} from "../src/state/state-store.js";
import { recordingLedger } from "./helpers/recording-ledger.js";

const binding = { runId: "r", sessionId: "s", runnerId: "n" };
const entry = (commandId: string, status: "pending" | "done") => ({
  commandId,
  controllerSeq: Number(commandId.slice(1)),
  type: "turn.start",
  fingerprint: "f",
  status,
  outcome: status === "done" ? ({ status: "accepted", detail: "command applied" } as const) : null,
});

/** The next state a daemon would commit: a journal entry and `events` new events. */
function step(state: RunnerState, commandId: string, status: "pending" | "done", events = 1): RunnerState {
  let next: RunnerState = { ...state, journal: withJournalEntry(state.journal, entry(commandId, status)) };
  for (let index = 0; index < events; index += 1)
    next = appendEvent(next, "item.delta", { commandId, index }, "2026-12-02T00:00:00.000Z").state;
  return next;
}

const stored = (stateDir: string) =>
  readStoredState(stateDir, (text) => parseRunnerState(text, binding)) as Promise<RunnerState>;
const journalLines = (stateDir: string) =>
  readFileSync(join(stateDir, JOURNAL_FILE_NAME), "utf8").split("\n").length - 1;
/** A deep copy as it would be read back (the live outbox array is shared with later states). */
const frozen = (state: RunnerState): RunnerState => JSON.parse(JSON.stringify(state));

async function opened(stateDir: string): Promise<StateStore> {
  return openDurableStateStore(stateDir, binding);
}

describe("the durable state journal", () => {
  it("appends one record per save and reads back exactly the last state saved", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    let state = store.initial;
    const saved: RunnerState[] = [];
    for (let index = 1; index <= 5; index += 1) {
      const status = index % 2 === 0 ? "done" : "pending";
      state = step(state, `c${index}`, status, 2);
      await store.save(state, [entry(`c${index}`, status)]);
      saved.push(frozen(state));
      expect(journalLines(stateDir)).toBe(1 + index);
    }
    // A save of an unchanged state writes nothing.
    await store.save(state, []);
    expect(journalLines(stateDir)).toBe(6);
    expect(frozen(await stored(stateDir))).toEqual(saved.at(-1));
    await store.close();

    // The next daemon recovers it: pending entries become indeterminate, and it starts a new snapshot.
    const next = await opened(stateDir);
    expect(next.recovery?.indeterminate).toEqual(["c1", "c3", "c5"]);
    expect(next.initial.outbox.map((event) => event.sourceSeq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(journalLines(stateDir)).toBe(1);
    expect(frozen(parseRunnerState(readFileSync(join(stateDir, STATE_FILE_NAME), "utf8"), binding))).toEqual(
      frozen(next.initial),
    );
    await next.close();
  });

  it("commits, in one record, every change made while a record is being written (group commit)", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    // The controller holds the first write, so the first commit is still in flight.
    const { ledger, written, releaseLastWrite: release } = recordingLedger(store, { holdWrites: true });
    ledger.emit("item.started", {});
    const first = ledger.commit();
    while (written.length === 0) await new Promise((resolve) => setImmediate(resolve));
    for (let index = 0; index < 3; index += 1) {
      ledger.emit("item.delta", { index });
      void ledger.commit();
    }
    const rest = ledger.commit();
    release();
    await first;
    while (written.length === 1) await new Promise((resolve) => setImmediate(resolve));
    release();
    await rest;
    // The header, the first commit's record, and one record for the three changes made meanwhile.
    expect(journalLines(stateDir)).toBe(3);
    expect((await stored(stateDir)).outbox).toHaveLength(4);
    expect(written.join("").trim().split("\n")).toHaveLength(4);
    await store.close();
  });

  it("writes a coalesced receipt only after its record is durable, with the output that followed it", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    const { ledger, written } = recordingLedger(store);
    const command = { commandId: "c1", controllerSeq: 1 };
    ledger.receiptSoon(command, "accepted", "command applied");
    expect(written).toEqual([]);
    // The harness answers within the window: its event and the receipt share one record.
    ledger.emit("item.started", {});
    await ledger.commit();
    expect(journalLines(stateDir)).toBe(2);
    expect(written).toHaveLength(1);
    expect(
      written[0]
        ?.trim()
        .split("\n")
        .map((line) => JSON.parse(line).message.commandId ?? "event"),
    ).toEqual(["c1", "event"]);

    // Nothing follows: the receipt goes out on its own once the window has passed.
    ledger.receiptSoon({ commandId: "c2", controllerSeq: 2 }, "accepted", "command applied");
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_COALESCE_MS * 10));
    await ledger.settled();
    expect(written.join("")).toContain('"commandId":"c2"');
    await store.close();
  });

  it("drops a record torn by a crash during its append (its commit never returned)", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    const committed = step(store.initial, "c1", "done");
    await store.save(committed, [entry("c1", "done")]);
    await store.close();
    const torn = journalLine({ set: { nextEventSeq: 99 }, journal: [entry("c2", "pending")], events: [] });
    appendFileSync(join(stateDir, JOURNAL_FILE_NAME), torn.slice(0, torn.length / 2));
    expect(frozen(await stored(stateDir))).toEqual(frozen(committed));
    const next = await opened(stateDir);
    expect(next.recovery?.indeterminate).toEqual([]);
    expect(next.initial.journal.c2).toBeUndefined();
    await next.close();
  });

  it("refuses a journal whose committed record was damaged on disk, and leaves it as it was", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    const first = step(store.initial, "c1", "pending");
    await store.save(first, [entry("c1", "pending")]);
    await store.save(step(first, "c2", "done"), [entry("c2", "done")]);
    await store.close();
    const path = join(stateDir, JOURNAL_FILE_NAME);
    // One bit of the first record's entry ("1" is 0x31, "3" 0x33): read as it parses, the pending
    // command would be c3, and c1, whose effect may have run, would be new to the next daemon.
    const damaged = readFileSync(path, "utf8").replace('"commandId":"c1"', '"commandId":"c3"');
    writeFileSync(path, damaged);
    const error = await caught(opened(stateDir));
    expect(error.code).toBe("ERR_RUNNER_STATE_CORRUPT");
    expect(error.message).toBe("durable state file is not valid: journal line 1 fails its checksum");
    expect(readFileSync(path, "utf8")).toBe(damaged);
  });

  it("recovers a journal written before records carried a checksum, and goes on in the checked format", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    await store.close();
    const snapshotText = readFileSync(join(stateDir, STATE_FILE_NAME), "utf8");
    const committed = step(store.initial, "c1", "pending");
    const bare = (value: unknown) => `${JSON.stringify(value)}\n`;
    const delta = {
      set: { nextEventSeq: committed.nextEventSeq },
      journal: [entry("c1", "pending")],
      events: committed.outbox,
    };
    writeFileSync(
      join(stateDir, JOURNAL_FILE_NAME),
      `${bare({ base: snapshotDigest(snapshotText) })}${bare(delta)}`,
      {
        mode: 0o600,
      },
    );
    const next = await opened(stateDir);
    expect(next.recovery?.indeterminate).toEqual(["c1"]);
    expect(next.initial.outbox.map((event) => event.sourceSeq)).toEqual([1]);
    expect(JSON.parse(readFileSync(join(stateDir, JOURNAL_FILE_NAME), "utf8")).line.version).toBe(2);
    await next.close();
  });

  it("refuses a journal hard-linked to another file instead of truncating that file", async () => {
    const stateDir = tempDirForTest();
    const elsewhere = tempDirForTest();
    // A root-owned 0600 file passes every other check of a private file: only its link count tells.
    const victim = join(elsewhere, "victim");
    writeFileSync(victim, "another file's bytes\n", { mode: 0o600 });
    linkSync(victim, join(stateDir, JOURNAL_FILE_NAME));
    const error = await caught(opened(stateDir));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR");
    expect(error.details).toEqual({ kind: "hard-link", nlink: 2 });
    expect(readFileSync(victim, "utf8")).toBe("another file's bytes\n");
  });

  it("stops writing a journal someone hard-linked while it was open", async () => {
    const stateDir = tempDirForTest();
    const store = await opened(stateDir);
    try {
      const before = readFileSync(join(stateDir, JOURNAL_FILE_NAME), "utf8");
      linkSync(join(stateDir, JOURNAL_FILE_NAME), join(stateDir, "second name"));
      const error = await caught(store.save(step(store.initial, "c1", "done"), [entry("c1", "done")]));
      expect(error.code).toBe("ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR");
      expect(error.details).toEqual({ kind: "hard-link", nlink: 2 });
      expect(readFileSync(join(stateDir, JOURNAL_FILE_NAME), "utf8")).toBe(before);
    } finally {
      await store.close();
    }
  });

  it("refuses a journal with a complete line that is not a record", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    await store.save(step(store.initial, "c1", "pending"), [entry("c1", "pending")]);
    await store.close();
    appendFileSync(join(stateDir, JOURNAL_FILE_NAME), "not a record\n");
    const error = await caught(opened(stateDir));
    expect(error.code).toBe("ERR_RUNNER_STATE_CORRUPT");
    expect(error.message).toBe("durable state file is not valid: journal line 2 is not a checksummed line");
  });

  it("ignores a journal that names an older snapshot: a crash between a new snapshot and the journal's restart", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    const first = step(store.initial, "c1", "pending");
    await store.save(first, [entry("c1", "pending")]);
    await store.close();
    // The compaction wrote the newer snapshot (c1 done), then the process died before restarting the journal.
    const newer = step(first, "c1", "done");
    writeFileSync(join(stateDir, STATE_FILE_NAME), `${JSON.stringify(newer)}\n`, { mode: 0o600 });
    expect(frozen(await stored(stateDir))).toEqual(frozen(newer));
    // And when the restart had emptied the journal but its header never reached the disk.
    writeFileSync(join(stateDir, JOURNAL_FILE_NAME), "", { mode: 0o600 });
    expect(frozen(await stored(stateDir))).toEqual(frozen(newer));
    const next = await opened(stateDir);
    expect(next.recovery?.indeterminate).toEqual([]);
    await next.close();
  });

  it("folds a long journal into a new snapshot and restarts the journal on it", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    let state = store.initial;
    const big = "x".repeat(64 * 1024);
    let compacted = false;
    for (let index = 1; !compacted; index += 1) {
      state = appendEvent(state, "item.delta", { big, index }, "2026-12-02T00:00:00.000Z").state;
      await store.save(state, []);
      compacted = journalLines(stateDir) === 1;
      expect(index).toBeLessThan((2 * JOURNAL_COMPACT_BYTES) / big.length);
    }
    const snapshotText = readFileSync(join(stateDir, STATE_FILE_NAME), "utf8");
    expect(parseJournal(readFileSync(join(stateDir, JOURNAL_FILE_NAME), "utf8"))).toEqual({
      base: snapshotDigest(snapshotText),
      records: [],
    });
    state = step(state, "c1", "done");
    await store.save(state, [entry("c1", "done")]);
    expect(frozen(await stored(stateDir))).toEqual(frozen(state));
    await store.close();
  });

  it("stops at a journal that is no longer private, before writing", async () => {
    const stateDir = join(tempDirForTest(), "state");
    const store = await opened(stateDir);
    chmodSync(join(stateDir, JOURNAL_FILE_NAME), 0o644);
    const error = await caught(store.save(step(store.initial, "c1", "pending"), [entry("c1", "pending")]));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_FILE_PERMISSIONS");
    expect(journalLines(stateDir)).toBe(1);
    await store.close();
  });
});
