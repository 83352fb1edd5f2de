import type { Writable } from "node:stream";
import type { ControllerCommand } from "../commands/controller-command.js";
import {
  type CommandReceiptMessage,
  type CommandReceiptStatus,
  type DiagnosticLevel,
  diagnosticMessage,
  eventMessage,
  type PrpEvent,
  type PrpEventType,
  receiptMessage,
  type StreamMessage,
  streamLine,
} from "../events/index.js";
import { acknowledgeEvents, appendEvent, type EventPlacement } from "../state/append-event.js";
import type { JournalEntry, StoredOutcome } from "../state/journal-entry.js";
import { setJournalEntry } from "../state/journal-lookup.js";
import type { RunnerState } from "../state/runner-state.js";
import type { StateStore } from "../state/state-store.js";
import type { RunFacts } from "./run-facts.js";

/** Output lines waiting for the controller past which the harness's stdout is no longer read. */
export const OUTPUT_HIGH_WATER_LINES = 1024;
const OUTPUT_LOW_WATER_LINES = 128;

/**
 * How long a receipt that follows an effect waits for company: the harness
 * usually answers a forwarded command within this, and its output and the
 * receipt then share one journal record and one `fdatasync`.
 */
export const RECEIPT_COALESCE_MS = 2;

/** Polls a commit of harness output waits for the harness to go quiet, at most. */
const MAX_POLL_LOOKS = 8;

export interface LedgerHooks {
  /** The queue of lines for the controller crossed the high (true) or low (false) water mark. */
  onBacklog(backlogged: boolean): void;
  /** A commit nobody awaits (a coalesced receipt's) failed: the state can no longer be made durable. */
  fail(error: unknown): void;
}

/**
 * The run's state and its way out: every change to the state, every event,
 * receipt and diagnostic goes through here, and `commit` makes the state durable
 * before it writes the lines that state produced, in order. What the controller
 * has seen is therefore always what a restarted daemon resumes from.
 */
export class RunLedger {
  private current: RunnerState;
  /** Journal entries set in place since the last save that resolved: that save's record carries them. */
  private journalSet: JournalEntry[] = [];
  private journalCount: number;
  private pending: string[] = [];
  private flushScheduled = false;
  /** The scheduled flush writes the queued lines too (a commit asked for it, not only a `persist`). */
  private linesWanted = false;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private backlogged = false;
  private coalescing: NodeJS.Timeout | null = null;
  private pollCommit: NodeJS.Immediate | null = null;
  /** Harness output arrived since the waiting commit last looked. */
  private outputSinceLook = false;
  private quietLooks = 0;

  constructor(
    private readonly store: StateStore,
    private readonly stdout: Writable,
    private readonly hooks: LedgerHooks,
  ) {
    this.current = store.initial;
    this.journalCount = Object.keys(store.initial.journal).length;
  }

  get state(): RunnerState {
    return this.current;
  }

  get run(): RunFacts {
    return this.current.run;
  }

  /** How many commands the journal holds. */
  get journalSize(): number {
    return this.journalCount;
  }

  /** The controller's end of stdout is gone: state is still saved, lines are no longer written. */
  closeOutput(): void {
    this.closed = true;
  }

  updateRun(patch: Partial<RunFacts>): void {
    this.current = { ...this.current, run: { ...this.current.run, ...patch } };
  }

  replace(update: (state: RunnerState) => RunnerState): void {
    this.current = update(this.current);
  }

  journal(
    command: ControllerCommand,
    fingerprint: string,
    status: "pending" | "done",
    outcome: StoredOutcome | null,
  ): void {
    const entry = {
      commandId: command.commandId,
      controllerSeq: command.controllerSeq,
      type: command.type,
      fingerprint,
      status,
      outcome,
    };
    if (!Object.hasOwn(this.current.journal, entry.commandId)) this.journalCount += 1;
    setJournalEntry(this.current.journal, entry);
    this.journalSet.push(entry);
    if (command.controllerSeq > this.current.lastControllerSeq) {
      this.current = { ...this.current, lastControllerSeq: command.controllerSeq };
    }
  }

  acknowledge(throughSeq: number): void {
    this.current = acknowledgeEvents(this.current, throughSeq);
  }

  emit(eventType: PrpEventType, payload: Record<string, unknown>, placement: EventPlacement = {}): PrpEvent {
    const appended = appendEvent(this.current, eventType, payload, new Date().toISOString(), placement);
    this.current = appended.state;
    this.queue(eventMessage(appended.event));
    return appended.event;
  }

  /** Events a previous daemon persisted but the controller may never have seen: the same events again. */
  resend(events: readonly PrpEvent[]): void {
    for (const event of events) this.queue(eventMessage(event));
  }

  receipt(
    subject: { readonly commandId: string; readonly controllerSeq: number },
    status: CommandReceiptStatus,
    detail: string,
    extra: Pick<CommandReceiptMessage, "original" | "expectedControllerSeq"> = {},
  ): Promise<void> {
    this.queue(receiptMessage(subject, status, detail, extra));
    return this.commit();
  }

  /**
   * A receipt that may wait for the next commit (at most `RECEIPT_COALESCE_MS`,
   * then until the harness is quiet, as its output would be: on a loaded machine
   * the timer may run when the harness's answer is already in the pipe, and
   * they still share a record): it is still written only once the state that
   * answers it is durable, and in order with every other line. The caller does
   * not wait for it; a failure goes to `fail`.
   */
  receiptSoon(
    subject: { readonly commandId: string; readonly controllerSeq: number },
    status: CommandReceiptStatus,
    detail: string,
  ): void {
    this.queue(receiptMessage(subject, status, detail));
    if ((this.flushScheduled && this.linesWanted) || this.coalescing !== null) return;
    this.coalescing = setTimeout(() => {
      this.coalescing = null;
      this.commitAfterPoll();
    }, RECEIPT_COALESCE_MS);
  }

  /**
   * A commit once the harness has gone quiet (harness output): after a poll of
   * the event loop that read nothing more from it, never a timer. A harness
   * that writes its events one write at a time has the next one in the pipe by
   * then, and they share one record (with a receipt waiting for them) instead
   * of the second landing in a record of its own while the first is synced.
   * Each look is one non-blocking poll; past `MAX_POLL_LOOKS` a harness that
   * never pauses is committed anyway. Failures go to `fail`.
   */
  commitAfterPoll(): void {
    this.outputSinceLook = true;
    if (this.pollCommit !== null) return;
    this.quietLooks = 0;
    this.pollCommit = setImmediate(this.commitOncePollQuiet);
  }

  /** Runs as an immediate: the first right after the poll that read the output, each later one after one more poll. */
  private readonly commitOncePollQuiet = (): void => {
    if (this.outputSinceLook && this.quietLooks < MAX_POLL_LOOKS) {
      this.outputSinceLook = false;
      this.quietLooks += 1;
      this.pollCommit = setImmediate(this.commitOncePollQuiet);
      return;
    }
    this.pollCommit = null;
    this.commit().catch((error: unknown) => this.hooks.fail(error));
  };

  diagnostic(level: DiagnosticLevel, message: string): Promise<void> {
    this.queue(diagnosticMessage(level, message));
    return this.commit();
  }

  /** Saves the current state, then writes every line queued so far. Calls made while a write is in flight share the next one. */
  commit(): Promise<void> {
    if (this.coalescing !== null) {
      clearTimeout(this.coalescing);
      this.coalescing = null;
    }
    if (this.pollCommit !== null) {
      clearImmediate(this.pollCommit);
      this.pollCommit = null;
    }
    this.linesWanted = true;
    return this.scheduleFlush();
  }

  /**
   * Saves the current state and leaves the queued lines for the next commit: a
   * command's `pending` entry must be durable before its effect, but its lines
   * need not reach the controller before the effect, and going out with the
   * receipt (which follows within `RECEIPT_COALESCE_MS`) saves a write to the
   * controller and a wake-up of it per command.
   */
  persist(): Promise<void> {
    return this.scheduleFlush();
  }

  /** Every commit so far, settled (for teardown); a commit still waiting (for company, for a poll), or any queued line, is made now. */
  settled(): Promise<void> {
    if (this.coalescing !== null || this.pollCommit !== null || this.pending.length > 0) {
      this.commit().catch(() => undefined);
    }
    return this.chain.catch(() => undefined);
  }

  private scheduleFlush(): Promise<void> {
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.chain = this.chain.then(() => this.flush());
    }
    return this.chain;
  }

  private queue(message: StreamMessage): void {
    this.pending.push(streamLine(message));
    if (!this.backlogged && this.pending.length >= OUTPUT_HIGH_WATER_LINES) {
      this.backlogged = true;
      this.hooks.onBacklog(true);
    }
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const lines = this.linesWanted ? this.pending.splice(0) : [];
    this.linesWanted = false;
    const journalSet = this.journalSet.length;
    await this.store.save(this.current, this.journalSet.slice());
    this.journalSet.splice(0, journalSet);
    if (lines.length > 0 && !this.closed) {
      await new Promise<void>((resolve) => {
        this.stdout.write(`${lines.join("\n")}\n`, () => resolve());
      });
    }
    if (this.backlogged && this.pending.length <= OUTPUT_LOW_WATER_LINES) {
      this.backlogged = false;
      this.hooks.onBacklog(false);
    }
  }
}
