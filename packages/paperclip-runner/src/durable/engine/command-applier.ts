import { commandFingerprint, wireCommandFingerprint } from "../../commands/command-fingerprint.js";
import { RECEIPT_DETAILS } from "../../events/receipt-details.js";
import {
  admitServerCommand,
  commandResult,
  type ServerCommand,
  withCommandRecord,
} from "../state/command-journal.js";
import type { StateCommitter } from "../state/state-committer.js";
import { LIFECYCLE_END, type RecordedStreamEnd, streamEndLifecycle } from "../state/stream-end.js";
import { withTerminalDeliveryPending } from "../state/terminal-delivery.js";
import { commandSubject, readServerCommand, resultStatus } from "../transport/server-command.js";
import type { DurableEngine } from "./durable-engine.js";

const ENGINE_FINISHED_MESSAGE = "run has already finished";

export interface CommandApplierDeps {
  readonly committer: StateCommitter;
  readonly engine: DurableEngine;
  /** The launcher's turn id: what `turn.start` returns as `providerTurnId`. */
  readonly turnId: string;
  /** Commands the journal holds (`--command-history-limit`). */
  readonly historyLimit: number;
  readonly sendResult: (result: Record<string, unknown>) => void;
  /** The command being applied is answered: the events held for its answer go out (`answer-first.ts`). */
  readonly answered: () => void;
  /**
   * Whether the end of the command stream may write the lifecycle (`FirstTerminalCause`): false once
   * the run failed or was revoked first. Asked as the lifecycle is written.
   */
  readonly claimStreamEnd: () => boolean;
  /** Called with the result of a `runner.shutdown`/`runner.suspend` once it is durable (before it is sent). */
  readonly onStreamEnd: (result: Record<string, unknown>) => void;
}

/**
 * Applies server commands one at a time, each at most once: journalled `pending`
 * (durable) before its effect, `done` with its result after, and answered from the
 * journal, byte for byte, when the server delivers the id again.
 */
export class CommandApplier {
  constructor(private readonly deps: CommandApplierDeps) {}

  /** Tells the engine a command arrived that it is to apply (malformed or journalled ones are not). */
  arrived(value: unknown): void {
    let command: ServerCommand;
    try {
      const reading = readServerCommand(value);
      if (reading.kind !== "command") return;
      command = reading.command;
    } catch {
      return;
    }
    // Only the journal is asked: the commands queued before this one have not advanced the seq yet.
    if (Object.hasOwn(this.deps.committer.state.processedCommands, command.commandId)) return;
    this.deps.engine.commandArrived?.(command);
  }

  async handle(value: unknown): Promise<void> {
    const { committer } = this.deps;
    const reading = readServerCommand(value);
    const command = reading.kind === "command" ? reading.command : reading.subject;
    // Upstream's digest (`processedCommandFingerprints`); a record journalled before it was kept
    // holds the one of the command as received, asked of it alone.
    const fingerprint = wireCommandFingerprint(value as Record<string, unknown>);
    const admission = admitServerCommand(
      committer.state,
      command,
      (form) => (form === "wire" ? fingerprint : commandFingerprint(value)),
      this.deps.historyLimit,
    );
    if (admission.kind === "replay") {
      // A shutdown refused as malformed ended nothing, and its replay does not either. One that
      // was applied ends the stream again. An indeterminate one too: whether the crashed runner
      // stopped its harness is unknown, and the server asked to stop (that relaunch bound its
      // recovered engine at start, and its welcome said `ready`).
      if (LIFECYCLE_END.has(command.type) && admission.result.status !== "rejected") {
        await this.endAgain({ ...commandSubject(command), result: admission.result });
        return;
      }
      this.deps.sendResult(admission.result);
      return;
    }
    if (admission.kind === "conflict") {
      const reused = commandResult(
        commandSubject(command),
        "rejected",
        "commandId was reused with different data",
        null,
      );
      this.deps.sendResult(reused);
      return;
    }
    if (admission.kind === "not_contiguous" || admission.kind === "history_full") {
      // As local mode: answered, not journalled (the seq stays where it was), never applied.
      const detail =
        admission.kind === "not_contiguous" ? RECEIPT_DETAILS.notContiguous : RECEIPT_DETAILS.historyFull;
      this.deps.sendResult(commandResult(commandSubject(command), "rejected", detail, null));
      return;
    }
    const record = { ...commandSubject(command), fingerprint };
    if (reading.kind === "invalid") {
      // Journalled like any answered command (so its seq is taken and a redelivery replays it), never applied.
      const refused = commandResult(record, "rejected", reading.reason, null);
      committer.update((state) => withCommandRecord(state, { ...record, status: "done", result: refused }));
      await committer.commit();
      this.deps.sendResult(refused);
      return;
    }
    committer.update((state) => withCommandRecord(state, { ...record, status: "pending", result: null }));
    // Durable before the effect: a crash from here on makes the command indeterminate, never repeated.
    await committer.commit();
    const result = await this.apply(reading.command);
    committer.update((state) => {
      const next = withCommandRecord(state, { ...record, status: "done", result });
      if (!LIFECYCLE_END.has(command.type)) return next;
      // The end's delivery is pending until its ack: a relaunch before that honours it again.
      const fenced = result.status === "rejected" ? next : withTerminalDeliveryPending(next, record);
      if (!this.deps.claimStreamEnd()) return fenced;
      return { ...fenced, lifecycle: streamEndLifecycle(command.type) };
    });
    await committer.commit();
    if (LIFECYCLE_END.has(command.type)) this.deps.onStreamEnd(result);
    this.deps.sendResult(result);
    this.deps.answered();
    await this.deps.engine.afterCommand?.(reading.command);
  }

  /**
   * An end of the stream applied before reaching this runner again (redelivered, or journalled
   * by the runner before a relaunch and left standing by its welcome, `endStands`): the engine
   * stopped first, as applying does (the lifecycle must not say stopped/suspended of a running
   * harness), the lifecycle it left and its pending delivery written again (durable before the
   * result, as when it was applied), then the journalled result sent, byte for byte.
   */
  async endAgain(end: RecordedStreamEnd): Promise<void> {
    const { committer } = this.deps;
    await this.stopEngine();
    const claimed = this.deps.claimStreamEnd();
    committer.update((state) => ({
      ...withTerminalDeliveryPending(state, end),
      ...(claimed ? { lifecycle: streamEndLifecycle(end.type) } : {}),
    }));
    await committer.commit();
    this.deps.onStreamEnd(end.result);
    this.deps.sendResult(end.result);
  }

  /** Ends the engine's run and waits for its end (its harness stopped). */
  private async stopEngine(): Promise<void> {
    const { engine } = this.deps;
    await engine.ready;
    if (engine.isFinished) return;
    engine.shutdown();
    await engine.finished.catch(() => undefined);
  }

  private async apply(command: ServerCommand): Promise<Record<string, unknown>> {
    const { committer, engine } = this.deps;
    const subject = commandSubject(command);
    await engine.ready;
    await engine.beforeCommand?.(command);
    if (LIFECYCLE_END.has(command.type)) {
      await this.stopEngine();
      // Upstream's runner answers a suspension and a shutdown alike, with their status.
      return commandResult(subject, "completed", "command applied", { status: "completed" });
    }
    if (command.type === "runner.drain") {
      // The server's close barrier: true only when every event is acknowledged (nothing retained to
      // resend) and the engine holds none back (a resume's startup facts, say).
      const retainedEventsDrained =
        committer.durable.outbox.length === 0 &&
        committer.state.outbox.length === 0 &&
        engine.holdsEvents?.() !== true;
      return commandResult(subject, "completed", "command applied", {
        status: "completed",
        retainedEventsDrained,
      });
    }
    if (engine.isFinished) return commandResult(subject, "rejected", ENGINE_FINISHED_MESSAGE, null);
    const engineSeq = committer.state.engineCommandSeq + 1;
    committer.update((state) => ({ ...state, engineCommandSeq: engineSeq }));
    const receipt = await engine.command(command, engineSeq);
    const outcome = receipt.status === "duplicate" && receipt.original !== null ? receipt.original : receipt;
    const status = resultStatus(outcome.status);
    if (receipt.result !== undefined) return commandResult(subject, status, outcome.detail, receipt.result);
    const result =
      status === "completed" && command.type === "turn.start" ? { providerTurnId: this.deps.turnId } : null;
    return commandResult(subject, status, outcome.detail, result);
  }
}
