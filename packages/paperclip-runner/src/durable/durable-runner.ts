import type WebSocket from "ws";
import { timerAt } from "../timers/timer-at.js";
import type { DurableOptions } from "./durable-options.js";
import { AnswerFirst } from "./engine/answer-first.js";
import { CommandApplier } from "./engine/command-applier.js";
import type { DurableEngine, EngineEvent } from "./engine/durable-engine.js";
import type { DurableState } from "./state/durable-state.js";
import type { DurableStore } from "./state/durable-store.js";
import { FirstTerminalCause } from "./state/first-terminal-cause.js";
import { acknowledgeOutbox, appendToOutbox } from "./state/outbox.js";
import { StateCommitter } from "./state/state-committer.js";
import { endStands, type RecordedStreamEnd, redelivers } from "./state/stream-end.js";
import { withRevokedLifecycle, withTerminalDeliveryAcked } from "./state/terminal-delivery.js";
import type { Welcome } from "./transport/authenticated-connection.js";
import { isLeaseRevoked } from "./transport/lease-revocation.js";
import {
  controlEnvelope,
  durablePrpEvent,
  eventEnvelope,
  inConnectionVersion,
} from "./transport/prp-envelope.js";
import { PRP_VERSION_MAX } from "./transport/prp-versions.js";
import { readServerAck } from "./transport/server-ack.js";
import { ServerLink } from "./transport/server-link.js";
import { failureSummary } from "./transport/transport-failure.js";

/** Failure summaries kept in the state file (the server shows the last few). */
const MAX_DIAGNOSTICS = 4;

export interface DurableRunnerDeps {
  readonly options: DurableOptions;
  readonly store: DurableStore;
  /** Opens a WebSocket to the server (dialling it, or accepting its connection in listen mode). */
  readonly dial: (signal?: AbortSignal) => Promise<WebSocket>;
  /** Starts the engine; its output lines go to the callback. */
  readonly startEngine: (onEvent: (event: EngineEvent) => Promise<void>) => DurableEngine;
  /** Kills the harness without ending the run (the state is kept for the next runner). */
  readonly killHarness: () => Promise<void>;
  /** The end of the stream a previous runner journalled, its delivery still pending (`recordedStreamEnd`), or null. */
  readonly recordedEnd: RecordedStreamEnd | null;
  readonly log: (line: string) => void;
}

/**
 * Durable mode's run: one engine, one state file, and a connection to the server
 * that is re-established with the connection lease whenever it drops (`ServerLink`). Every event
 * is in the persisted outbox before it is sent; every command is journalled as
 * pending before it reaches the engine and answered from the journal when the
 * server delivers it again.
 */
export class DurableRunner {
  private readonly committer: StateCommitter;
  private engine!: DurableEngine;
  private commands!: CommandApplier;
  private readonly link: ServerLink;
  private sentThrough = 0;
  /** Events held back until the command being applied is answered (a `turn.start`'s `turn.accepted`). */
  private readonly answerFirst = new AnswerFirst();
  private commandChain: Promise<void> = Promise.resolve();
  /** The stream-end result (`runner.shutdown`/`runner.suspend`) awaiting its ack: the runner leaves on that ack. */
  private ending: Record<string, unknown> | null = null;
  private settle!: (outcome: { ok: true } | { ok: false; error: unknown }) => void;
  private readonly settled: Promise<{ ok: true } | { ok: false; error: unknown }>;
  /** Set on a failure: nothing more is recorded, so the state stays what the next runner resumes from. */
  private failed = false;
  private readonly terminal = new FirstTerminalCause();
  /** The end of the stream the previous runner journalled, unacknowledged: the first welcome may still say the run goes on. */
  private recordedEnd: RecordedStreamEnd | null;

  constructor(
    private readonly deps: DurableRunnerDeps,
    ticket: string,
  ) {
    this.link = new ServerLink(
      {
        options: deps.options,
        dial: deps.dial,
        log: deps.log,
        onWelcome: (welcome) => this.onWelcome(welcome),
        onMessage: (message) => this.onServerMessage(message),
        onFailure: (error) => this.fail(error),
      },
      ticket,
    );
    this.committer = new StateCommitter(deps.store.initial, deps.store.save);
    this.recordedEnd = deps.recordedEnd;
    this.settled = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  private get state(): DurableState {
    return this.committer.state;
  }

  /**
   * Runs until the server ends the command stream or revokes the lease (exit 0), or the transport
   * fails for good (throws, state kept).
   */
  async run(): Promise<void> {
    this.engine = this.deps.startEngine((event) => this.onEngineEvent(event));
    this.commands = new CommandApplier({
      committer: this.committer,
      engine: this.engine,
      turnId: this.deps.options.identity.turnId,
      historyLimit: this.deps.options.commandHistoryLimit,
      sendResult: (result) => this.sendResult(result),
      answered: () => {
        this.answerFirst.answered();
        this.pump();
      },
      claimStreamEnd: () => this.terminal.claim("stream_end"),
      onStreamEnd: (result) => {
        this.ending = result;
      },
    });
    this.engine.finished.catch((error: unknown) => this.fail(error));
    const linkStopped = this.link.run().catch((error: unknown) => this.fail(error));
    // --max-lifetime-ms: the run ends (runner_shutdown) and the runner waits for the server to end the stream.
    const lifetime =
      this.deps.options.maxLifetimeMs > 0
        ? timerAt(Date.now() + this.deps.options.maxLifetimeMs, () => this.engine.shutdown())
        : undefined;
    const outcome = await this.settled;
    lifetime?.cancel();
    // Nothing of the connection outlives the run: a failed run used to go on reconnecting, and a
    // welcome taken up then changed the state it left.
    this.link.close();
    await linkStopped;
    if (!outcome.ok) {
      // The harness must not outlive the runner, and the run must not end here: the next runner resumes it.
      await this.deps.killHarness();
      // Only the failure is recorded (what the server shows for a run that stopped): outbox and journal stay as they were.
      // A revocation is the server's decision, not a failure: `revoked`, as upstream's runner writes it, and exit 0.
      const revoked = isLeaseRevoked(outcome.error);
      const summary = failureSummary(outcome.error);
      // The first terminal cause names the lifecycle: a shutdown already durable keeps its `stopped`.
      // Before the first welcome, an end a previous runner recorded still stands: its lifecycle (as
      // the state was reopened) is kept, and the next relaunch honours it.
      const first = this.terminal.claim("failure") && this.recordedEnd === null;
      this.committer.update((state) => {
        const noted = { ...state, diagnostics: [...state.diagnostics, summary].slice(-MAX_DIAGNOSTICS) };
        if (!first) return noted;
        if (revoked) return withRevokedLifecycle(noted);
        return { ...noted, lifecycle: "recoverable_failure" as const, recoverableFailure: summary };
      });
      if (!revoked) {
        await this.committer.commit().catch(() => undefined);
        throw outcome.error;
      }
      await this.committer.commit();
      this.deps.log(summary);
      return;
    }
    await this.engine.finished.catch(() => undefined);
    await this.committer.commit();
  }

  private fail(error: unknown): void {
    this.failed = true;
    // Claimed at once: a shutdown completing after this (its harness stopped by the failure) must not write `stopped`.
    this.terminal.claim("failure");
    this.settle({ ok: false, error });
  }

  // ---- engine side ------------------------------------------------------------------------------

  private async onEngineEvent(output: EngineEvent): Promise<void> {
    if (this.failed) return await new Promise<void>(() => undefined);
    if (output.engineLastControllerSeq !== null) {
      this.committer.update((state) => ({
        ...state,
        engineCommandSeq: output.engineLastControllerSeq as number,
      }));
    }
    if (output.engineSeq > this.state.engineEventSeq) {
      const event = durablePrpEvent(this.deps.options.identity, this.state.nextSourceSeq, output.event);
      // Made while no connection is up: `pump` sends it in the version the next one selects.
      const envelope = eventEnvelope(
        this.deps.options.identity,
        this.link.current?.welcome.version ?? PRP_VERSION_MAX,
        event,
      );
      const entry = {
        sourceSeq: event.sourceSeq,
        sourceEventId: event.sourceEventId,
        eventType: event.eventType,
        priority: event.priority,
        bytes: Buffer.byteLength(JSON.stringify(envelope)),
        envelope,
      };
      try {
        this.committer.update((state) => ({
          ...appendToOutbox(state, entry, this.deps.options.outbox),
          engineEventSeq: output.engineSeq,
        }));
      } catch (error) {
        // The server has not acknowledged for too long: stop with the state as it is (the event stays with the engine).
        this.fail(error);
        return await new Promise<void>(() => undefined);
      }
      this.answerFirst.queued(event.sourceSeq, output.afterAnswer === true);
      // Durable before the engine hears it is safe: the engine resends what it has no ack for.
      await this.committer.commit();
      this.engine.acknowledge(output.engineSeq);
      this.pump();
    }
  }

  // ---- connection side --------------------------------------------------------------------------

  /** A connection was welcomed: what the server acknowledged leaves the outbox, the rest is (re)sent. */
  private async onWelcome(welcome: Welcome): Promise<void> {
    // What the server holds was sent by this run, so it is durable here (an event is persisted before it is sent).
    readServerAck(welcome.ackedSourceSeq, this.committer.durable.nextSourceSeq - 1);
    // A relaunch whose predecessor journalled the end of the stream (a SIGKILL before its result's
    // ack): unless the server has moved past it, the run stays ended, the end honoured again.
    const recorded = this.recordedEnd;
    this.recordedEnd = null;
    const standing = recorded !== null && endStands(recorded, welcome.pendingCommands) ? recorded : null;
    // Moved past, the server holds the end's result: its delivery is no longer pending.
    const passed = recorded !== null && standing === null ? recorded.commandId : null;
    // A run whose stream already ended (its shutdown durable, the result not yet acknowledged when
    // the connection dropped, or the runner killed) is not ready again: its lifecycle keeps naming what ended it.
    this.committer.update((state) => ({
      ...acknowledgeOutbox(withTerminalDeliveryAcked(state, passed), welcome.ackedSourceSeq),
      ...(this.terminal.isClaimed || standing !== null
        ? {}
        : { lifecycle: "ready" as const, recoverableFailure: null }),
    }));
    // The server has what it acknowledged; everything after is (re)sent, byte for byte.
    this.sentThrough = welcome.ackedSourceSeq;
    this.pump();
    // A stream-end result the server recorded before its ack was lost: the server redelivers only
    // pending commands, so nothing would come back. Sent again: the server acks a duplicate of a
    // stored result. One it still has pending is redelivered here, and answered from the journal.
    const ending = this.ending;
    if (ending !== null && !redelivers(welcome.pendingCommands, ending.commandId)) this.sendResult(ending);
    // Redelivered, the recorded end is answered from the journal as it is handled; otherwise here.
    if (standing !== null && !redelivers(welcome.pendingCommands, standing.commandId))
      this.enqueue(() => this.commands.endAgain(standing));
    for (const command of welcome.pendingCommands) this.enqueueCommand(command);
    await this.committer.commit();
  }

  private onServerMessage(message: Record<string, unknown>): void {
    const payload = (message.payload ?? {}) as Record<string, unknown>;
    switch (message.kind) {
      case "ack": {
        // Thrown: the connection refuses the frame and delivers nothing after it.
        const acked = readServerAck(payload.ackedSourceSeq, this.sentThrough);
        void this.onAck(acked).catch((error: unknown) => this.fail(error));
        return;
      }
      case "command":
        this.enqueueCommand(payload);
        return;
      case "command_result_ack":
        if (this.ending !== null && payload.commandId === this.ending.commandId)
          void this.onEndAcked(payload.commandId).catch((error: unknown) => this.fail(error));
        return;
      default:
        // pings and later additions: nothing to do (the lease's own messages are the link's).
        return;
    }
  }

  /** The end's result is the server's: its fence cleared, durably, before the runner leaves (a relaunch then goes on). */
  private async onEndAcked(commandId: unknown): Promise<void> {
    this.committer.update((state) => withTerminalDeliveryAcked(state, commandId));
    await this.committer.commit();
    this.settle({ ok: true });
  }

  private async onAck(ackedSourceSeq: number): Promise<void> {
    this.committer.update((state) => acknowledgeOutbox(state, ackedSourceSeq));
    await this.committer.commit();
    this.pump();
  }

  /** Sends what is durable and not yet sent, up to the server's batch window and the events held for an answer. */
  private pump(): void {
    const open = this.link.current;
    if (open === null) return;
    const { connection, welcome } = open;
    const durable = this.committer.durable;
    const windowEnd = durable.ackedSourceSeq + welcome.maxBatchEvents;
    for (const entry of durable.outbox) {
      if (entry.sourceSeq <= this.sentThrough) continue;
      if (entry.sourceSeq > windowEnd || !this.answerFirst.sendable(entry.sourceSeq)) break;
      connection.send(inConnectionVersion(entry.envelope, welcome.version));
      this.sentThrough = entry.sourceSeq;
    }
  }

  // ---- commands ---------------------------------------------------------------------------------

  private enqueueCommand(value: unknown): void {
    this.commands.arrived(value);
    this.enqueue(() => this.commands.handle(value));
  }

  /** Runs `step` after the commands before it, one at a time; after a failure, none starts. */
  private enqueue(step: () => Promise<void>): void {
    this.commandChain = this.commandChain
      .then(() => (this.failed ? undefined : step()))
      .catch((error: unknown) => this.fail(error));
  }

  private sendResult(result: Record<string, unknown>): void {
    const open = this.link.current;
    if (open === null) return;
    open.connection.send(
      controlEnvelope(this.deps.options.identity, open.welcome.version, "command_result", result),
    );
  }
}
