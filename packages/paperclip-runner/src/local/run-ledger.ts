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
import type { StoredOutcome } from "../state/journal-entry.js";
import { withJournalEntry } from "../state/journal-lookup.js";
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
  private pending: string[] = [];
  private flushScheduled = false;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private backlogged = false;
  private coalescing: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: StateStore,
    private readonly stdout: Writable,
    private readonly hooks: LedgerHooks,
  ) {
    this.current = store.initial;
  }

  get state(): RunnerState {
    return this.current;
  }

  get run(): RunFacts {
    return this.current.run;
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
    this.current = {
      ...this.current,
      lastControllerSeq: Math.max(this.current.lastControllerSeq, command.controllerSeq),
      journal: withJournalEntry(this.current.journal, entry),
    };
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
   * A receipt that may wait for the next commit (at most `RECEIPT_COALESCE_MS`):
   * it is still written only once the state that answers it is durable, and in
   * order with every other line. The caller does not wait for it; a failure goes to `fail`.
   */
  receiptSoon(
    subject: { readonly commandId: string; readonly controllerSeq: number },
    status: CommandReceiptStatus,
    detail: string,
  ): void {
    this.queue(receiptMessage(subject, status, detail));
    if (this.flushScheduled || this.coalescing !== null) return;
    this.coalescing = setTimeout(() => {
      this.coalescing = null;
      this.commit().catch((error: unknown) => this.hooks.fail(error));
    }, RECEIPT_COALESCE_MS);
  }

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
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.chain = this.chain.then(() => this.flush());
    }
    return this.chain;
  }

  /** Every commit so far, settled (for teardown); a receipt still waiting for company is committed now. */
  settled(): Promise<void> {
    if (this.coalescing !== null) this.commit().catch(() => undefined);
    return this.chain.catch(() => undefined);
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
    const lines = this.pending.splice(0);
    await this.store.save(this.current);
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
