import type { Writable } from "node:stream";
import { redactSecrets, truncateUtf8 } from "@paperclipai/errors";
import type { HarnessCommand, HarnessMessage } from "../harness/harness-message.js";
import { type HarnessExit, HarnessProcess } from "../harness/harness-process.js";
import type { HarnessSpawnSpec } from "../harness/harness-spawn-spec.js";
import { killStaleProcessGroup } from "../harness/process-identity.js";
import { admitCommand } from "../protocol/admit-command.js";
import { commandFingerprint } from "../protocol/command-fingerprint.js";
import {
  makeReceipt,
  RECEIPT_MESSAGES,
  type ReceiptStatus,
  type ReceiptSubject,
  type StoredReceipt,
} from "../protocol/command-receipt.js";
import { type ControllerCommand, parseControllerLine } from "../protocol/controller-command.js";
import type { RunnerEventType } from "../protocol/runner-event.js";
import { acknowledgeEvents, appendEvent } from "../state/append-event.js";
import { journalEntry, withJournalEntry } from "../state/journal-lookup.js";
import type { RunnerState } from "../state/runner-state.js";
import type { StateStore } from "../state/state-store.js";
import { type ControllerInput, type ControllerLines, MAX_CONTROLLER_LINE_BYTES } from "./controller-lines.js";
import { decideTerminal, type HarnessOutcome } from "./decide-terminal.js";
import { type CommandPlan, planCommand } from "./plan-command.js";
import type { RunFacts, StopCause } from "./run-facts.js";

export interface LocalRunnerTimings {
  /** How long a started harness has to say `ready`. */
  readonly readyTimeoutMs: number;
  /** SIGTERM to SIGKILL. */
  readonly stopGraceMs: number;
  /** After forwarding turn.interrupt, how long the harness may take to leave on its own. */
  readonly interruptGraceMs: number;
  /** After the harness's `terminal` message, how long it may take to exit before it is stopped. */
  readonly terminalExitGraceMs: number;
}

export const DEFAULT_TIMINGS: LocalRunnerTimings = {
  readyTimeoutMs: 10_000,
  stopGraceMs: 2_000,
  interruptGraceMs: 1_000,
  terminalExitGraceMs: 2_000,
};

export interface HarnessLauncher {
  /** Shown in `harness.starting`: the executable's name, never its arguments. */
  readonly label: string;
  readonly sandboxed: boolean;
  build(): Promise<HarnessSpawnSpec>;
}

const MAX_LOG_MESSAGE_BYTES = 4096;
/** A command plan with an effect beyond the state itself. */
type EffectPlan = Exclude<CommandPlan, { kind: "reject" } | { kind: "prepare" }>;
/** Output lines waiting for the controller beyond which the harness's stdout is no longer read. */
const OUTPUT_HIGH_WATER_LINES = 1024;
const OUTPUT_LOW_WATER_LINES = 128;

/**
 * One local-mode run: reads controller commands, applies each exactly once,
 * supervises the harness and numbers every event. Every output line is written
 * only after the state that produced it is durable, so what the controller has
 * seen is always what a restarted daemon resumes from.
 */
export class LocalRunner {
  private state: RunnerState;
  private harness: HarnessProcess | null = null;
  private harnessSettled: Promise<void> = Promise.resolve();
  private readyReceived = false;
  private readyWaiter: (() => void) | null = null;
  private terminalTimer: NodeJS.Timeout | undefined;
  private pendingLines: string[] = [];
  private readonly lateLines: ControllerInput[] = [];
  private flushScheduled = false;
  private flushChain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private inFlight: Promise<void> = Promise.resolve();
  private outputClosed = false;
  private harnessOutputPaused = false;
  private readonly terminalReached: Promise<void>;
  private reachTerminal!: () => void;

  constructor(
    private readonly store: StateStore,
    private readonly launcher: HarnessLauncher,
    private readonly stdout: Writable,
    private readonly timings: LocalRunnerTimings = DEFAULT_TIMINGS,
  ) {
    this.state = store.initial;
    this.terminalReached = new Promise((resolve) => {
      this.reachTerminal = resolve;
    });
    stdout.on("error", () => {
      // The controller's end of stdout is gone: nobody can see this run any more.
      this.outputClosed = true;
      void this.stopRun("controller_closed", null).catch((error) => this.fail(error));
    });
  }

  /** Runs until the run's terminal event is out; returns the exit code. Rethrows a failure of the state store. */
  async run(input: ControllerLines): Promise<number> {
    try {
      await this.begin();
      const loop = this.readCommands(input.lines);
      await Promise.race([loop, this.terminalReached]);
      // The run may end while a command is still being applied; its receipt goes out too.
      await this.inFlight;
      // Lines that had already arrived still get their one receipt ("run has already finished", or a replay),
      // the one the command loop took when it saw the terminal included; answering may take a while, so
      // lines that arrive meanwhile are answered too.
      for (;;) {
        const late = [...this.lateLines.splice(0), ...input.takeBuffered()];
        if (late.length === 0) break;
        for (const line of late) await this.handleInput(line);
      }
      await this.flushChain;
      this.throwIfFailed();
      return 0;
    } finally {
      clearTimeout(this.terminalTimer);
      if (this.harness !== null) await this.harness.stop();
      await this.harnessSettled;
      await this.inFlight.catch(() => undefined);
      await this.flushChain.catch(() => undefined);
    }
  }

  /** Stops the run from outside (a signal to the daemon), as runner.shutdown would. */
  requestShutdown(): void {
    void this.stopRun("runner_shutdown", null).catch((error) => this.fail(error));
  }

  private async begin(): Promise<void> {
    const recovery = this.store.recovery;
    if (recovery === null) {
      this.emit("runner.started", { mode: "local", durable: this.store.durable, pid: process.pid });
      await this.commit();
      return;
    }
    const previousHarness = this.state.harness;
    const staleHarnessKilled = previousHarness !== null && killStaleProcessGroup(previousHarness);
    this.state = { ...this.state, harness: null };
    // Events the previous daemon persisted may never have reached the controller: send them again, same ids.
    const replayed = this.state.outbox.map((event) => JSON.stringify(event));
    this.pendingLines.push(...replayed);
    const run = this.state.run;
    const resume = run.terminal === null && run.session !== null;
    this.emit("runner.reconciled", {
      restarts: this.state.restarts,
      replayedEvents: replayed.length,
      ackedSeq: this.state.ackedSeq,
      lastControllerSeq: this.state.lastControllerSeq,
      indeterminateCommands: [...recovery.indeterminate],
      abandonedTurn: recovery.abandonedTurn,
      abandonedRequests: [...recovery.abandonedRequests],
      staleHarnessKilled,
      resumedSession: resume,
      terminal: run.terminal,
    });
    await this.commit();
    if (run.terminal !== null) {
      this.reachTerminal();
      return;
    }
    if (resume && run.session !== null) {
      this.setPhase("starting_harness");
      await this.startHarness({
        type: "command",
        commandId: run.session.commandId,
        command: "session.open",
        payload: run.session.payload,
        resume: true,
      });
    }
  }

  private async readCommands(commands: AsyncIterable<ControllerInput>): Promise<void> {
    for await (const line of commands) {
      this.throwIfFailed();
      if (this.state.run.terminal !== null) {
        // Taken off the queue after the end: `run` answers it with the other late lines.
        this.lateLines.push(line);
        return;
      }
      this.inFlight = this.handleInput(line);
      await this.inFlight;
      if (this.state.run.terminal !== null) return;
    }
    this.throwIfFailed();
    if (this.state.run.terminal === null) await this.stopRun("controller_closed", null);
  }

  private async handleInput(line: ControllerInput): Promise<void> {
    if (typeof line !== "string") {
      const reason = `command line of ${line.oversizedBytes} bytes exceeds ${MAX_CONTROLLER_LINE_BYTES} bytes`;
      await this.respond({ commandId: null, controllerSeq: null, type: null }, "rejected", reason);
      return;
    }
    if (line.trim() !== "") await this.handleLine(line);
  }

  private async handleLine(line: string): Promise<void> {
    const parsed = parseControllerLine(line);
    if (parsed.kind === "ack") {
      this.state = acknowledgeEvents(this.state, parsed.ack.throughSeq);
      await this.commit();
      return;
    }
    if (parsed.kind === "invalid") {
      await this.respond(parsed, "rejected", parsed.reason);
      return;
    }
    const command = parsed.command;
    const fingerprint = commandFingerprint(command);
    const admission = admitCommand(
      command,
      fingerprint,
      journalEntry(this.state.journal, command.commandId),
      this.state.lastControllerSeq,
    );
    if (admission.kind === "duplicate") {
      await this.respond(command, "duplicate", RECEIPT_MESSAGES.duplicate, { original: admission.original });
      return;
    }
    if (admission.kind === "rejected") {
      const extra =
        admission.expectedControllerSeq === undefined
          ? {}
          : { expectedControllerSeq: admission.expectedControllerSeq };
      await this.respond(command, "rejected", admission.message, extra);
      return;
    }
    const plan = planCommand(this.state.run, command.type, command.payload);
    if (plan.kind === "reject") {
      this.journal(command, fingerprint, "done", { status: "rejected", message: plan.message });
      await this.respond(command, "rejected", plan.message);
      return;
    }
    const applied = { status: "accepted", message: RECEIPT_MESSAGES.applied } as const;
    if (plan.kind === "prepare") {
      // The effect is the state change itself: it, the journal entry and the receipt land in one write.
      this.updateRun({ prepared: true });
      this.setPhase("prepared");
      this.journal(command, fingerprint, "done", applied);
      await this.respond(command, "accepted", applied.message);
      return;
    }
    this.journal(command, fingerprint, "pending", null);
    this.recordIntent(command, plan);
    // Durable before the effect: a crash from here on leaves `pending`, which is never run again.
    await this.commit();
    await this.apply(command, plan);
    this.journal(command, fingerprint, "done", applied);
    await this.respond(command, "accepted", applied.message);
  }

  /** The state a command's effect is about to create, persisted with its `pending` entry. */
  private recordIntent(command: ControllerCommand, plan: EffectPlan): void {
    switch (plan.kind) {
      case "open_session":
        this.updateRun({ session: { commandId: command.commandId, payload: command.payload } });
        this.setPhase("starting_harness");
        return;
      case "start_turn":
        this.updateRun({ turn: { commandId: command.commandId } });
        this.setPhase("turn_running");
        return;
      case "resolve_request":
        this.updateRun({ openRequests: this.state.run.openRequests.filter((id) => id !== plan.requestId) });
        return;
      case "stop":
        return;
    }
  }

  private async apply(command: ControllerCommand, plan: EffectPlan): Promise<void> {
    const forward: HarnessCommand = {
      type: "command",
      commandId: command.commandId,
      command: command.type,
      payload: command.payload,
    };
    switch (plan.kind) {
      case "open_session":
        await this.startHarness(forward);
        return;
      case "start_turn":
      case "resolve_request":
        await this.harness?.send(forward);
        return;
      case "stop":
        await this.stopRun(plan.cause, forward);
        return;
    }
  }

  private async startHarness(open: HarnessCommand): Promise<void> {
    this.emit("harness.starting", {
      label: this.launcher.label,
      sandboxed: this.launcher.sandboxed,
      resume: open.resume === true,
    });
    await this.commit();
    let spec: HarnessSpawnSpec;
    try {
      spec = await this.launcher.build();
    } catch (error) {
      // No process was started (the sandbox could not be set up); the stream still pairs starting with exited.
      const message = describeError(error);
      this.emit("harness.exited", {
        exitCode: null,
        signal: null,
        spawnError: redactSecrets(message),
        logTail: { lines: [], droppedLines: 0 },
      });
      await this.finish({ kind: "spawn_failed", message });
      return;
    }
    // A shutdown may have ended the run while the spawn target was being built.
    if (this.state.run.terminal !== null) {
      await spec.cleanup?.();
      return;
    }
    this.readyReceived = false;
    const ready = new Promise<void>((resolve) => {
      this.readyWaiter = resolve;
    });
    const harness = new HarnessProcess(
      spec,
      {
        onMessage: (message) => this.onHarnessMessage(message),
        onViolation: (reason) => this.onViolation(reason),
      },
      { stopGraceMs: this.timings.stopGraceMs },
    );
    this.harness = harness;
    this.harnessSettled = harness.exited
      .then((exit) => this.onHarnessExit(harness, exit))
      .catch((error: unknown) => this.fail(error));
    this.state = { ...this.state, harness: harness.identity };
    await this.commit();
    const outcome = await Promise.race([
      ready.then(() => "ready" as const),
      harness.exited.then(() => "exited" as const),
      delay(this.timings.readyTimeoutMs).then(() => "timeout" as const),
    ]);
    if (outcome === "ready") {
      await harness.send(open);
      if (this.state.run.phase === "starting_harness") this.setPhase("session_open");
      await this.commit();
      return;
    }
    if (outcome === "timeout") {
      this.setStopCause("harness_ready_timeout");
      await harness.stop();
    }
    await this.harnessSettled;
  }

  private onHarnessMessage(message: HarnessMessage): void {
    if (
      !this.readyReceived &&
      message.type !== "ready" &&
      message.type !== "log" &&
      message.type !== "diagnostic"
    ) {
      this.onViolation(`harness sent ${message.type} before ready`);
      return;
    }
    switch (message.type) {
      case "ready":
        if (this.readyReceived) {
          this.onViolation("harness sent ready twice");
          return;
        }
        this.readyReceived = true;
        this.emit("harness.ready", { pid: this.harness?.pid ?? null, info: message.info });
        this.readyWaiter?.();
        break;
      case "event":
        this.emit("harness.event", { event: message.event });
        break;
      case "request":
        if (!this.state.run.openRequests.includes(message.requestId)) {
          this.updateRun({ openRequests: [...this.state.run.openRequests, message.requestId] });
        }
        this.emit("harness.request", { requestId: message.requestId, request: message.request });
        break;
      case "result": {
        const turn = this.state.run.turn;
        this.updateRun({ resultSeen: true, turn: null });
        this.emit("harness.result", { turnCommandId: turn?.commandId ?? null, result: message.result });
        if (this.state.run.phase === "turn_running") this.setPhase("session_open");
        break;
      }
      case "terminal":
        this.updateRun({ harnessTerminal: { status: message.status } });
        this.emit("harness.terminal", { status: message.status, detail: message.detail });
        // The harness says it is done; it gets a grace period to exit by itself before it is stopped.
        this.terminalTimer ??= setTimeout(() => {
          this.setStopCause("harness_lingered");
          void this.harness?.stop();
        }, this.timings.terminalExitGraceMs);
        break;
      case "log":
        this.emit("harness.log", {
          level: message.level,
          message: truncateUtf8(redactSecrets(message.message), MAX_LOG_MESSAGE_BYTES).text,
        });
        break;
      case "diagnostic":
        this.emit("harness.diagnostic", { diagnostic: message.diagnostic });
        break;
    }
    this.commitInBackground();
    if (this.pendingLines.length >= OUTPUT_HIGH_WATER_LINES && !this.harnessOutputPaused) {
      this.harnessOutputPaused = true;
      this.harness?.pauseOutput();
    }
  }

  private onViolation(reason: string): void {
    this.emit("harness.protocol_violation", { reason });
    this.setStopCause("harness_protocol_violation");
    this.commitInBackground();
    void this.harness?.stop();
  }

  private async onHarnessExit(harness: HarnessProcess, exit: HarnessExit): Promise<void> {
    clearTimeout(this.terminalTimer);
    this.terminalTimer = undefined;
    if (this.harness === harness) this.harness = null;
    this.state = { ...this.state, harness: null };
    const outcome: HarnessOutcome =
      exit.kind === "spawn_failed"
        ? exit
        : { kind: "exited", exitCode: exit.exitCode, signal: exit.signal, readyReceived: this.readyReceived };
    this.emit("harness.exited", {
      ...(exit.kind === "spawn_failed"
        ? { exitCode: null, signal: null, spawnError: redactSecrets(exit.message) }
        : { exitCode: exit.exitCode, signal: exit.signal }),
      logTail: exit.logTail,
    });
    this.readyWaiter?.();
    await this.finish(outcome);
  }

  /** Ends the run with its one terminal event. */
  private async finish(harness: HarnessOutcome): Promise<void> {
    if (this.state.run.terminal !== null) return;
    const run = this.state.run;
    const decision = decideTerminal({
      stopCause: run.stopCause,
      harness,
      resultSeen: run.resultSeen,
      harnessTerminal: run.harnessTerminal,
    });
    this.setPhase("finished");
    const seq = this.state.nextEventSeq;
    this.updateRun({ terminal: { reason: decision.reason, seq }, turn: null, openRequests: [] });
    this.emit("run.terminal", {
      reason: decision.reason,
      detail: redactSecrets(decision.detail),
      resultSeen: run.resultSeen,
      harnessTerminal: run.harnessTerminal,
    });
    await this.commit();
    this.reachTerminal();
  }

  private async stopRun(cause: StopCause, forward: HarnessCommand | null): Promise<void> {
    if (this.state.run.terminal !== null) return;
    this.setStopCause(cause);
    this.setPhase("stopping");
    await this.commit();
    const harness = this.harness;
    if (harness === null) {
      await this.finish({ kind: "not_started" });
      return;
    }
    if (cause === "turn_interrupted" && forward !== null) {
      await harness.send(forward);
      await Promise.race([harness.exited, delay(this.timings.interruptGraceMs)]);
    }
    await harness.stop();
    await this.harnessSettled;
  }

  private setStopCause(cause: StopCause): void {
    if (this.state.run.stopCause === null) this.updateRun({ stopCause: cause });
  }

  private setPhase(phase: RunFacts["phase"]): void {
    const previous = this.state.run.phase;
    if (previous === phase) return;
    this.updateRun({ phase });
    this.emit("run.phase", { phase, previous });
  }

  private updateRun(patch: Partial<RunFacts>): void {
    this.state = { ...this.state, run: { ...this.state.run, ...patch } };
  }

  private journal(
    command: ControllerCommand,
    fingerprint: string,
    status: "pending" | "done",
    receipt: StoredReceipt | null,
  ): void {
    const entry = {
      commandId: command.commandId,
      controllerSeq: command.controllerSeq,
      type: command.type,
      fingerprint,
      status,
      receipt,
    };
    this.state = {
      ...this.state,
      lastControllerSeq: Math.max(this.state.lastControllerSeq, command.controllerSeq),
      journal: withJournalEntry(this.state.journal, entry),
    };
  }

  private emit(type: RunnerEventType, data: Record<string, unknown>): void {
    const appended = appendEvent(this.state, type, data, new Date().toISOString());
    this.state = appended.state;
    this.pendingLines.push(JSON.stringify(appended.event));
  }

  private respond(
    subject: ReceiptSubject,
    status: ReceiptStatus,
    message: string,
    extra: Parameters<typeof makeReceipt>[4] = {},
  ): Promise<void> {
    const receipt = makeReceipt(this.state.binding.runId, subject, status, message, extra);
    this.pendingLines.push(JSON.stringify(receipt));
    return this.commit();
  }

  /**
   * Makes the current state durable, then writes every line queued so far, in
   * order. Calls made while a write is in flight share the next one.
   */
  private commit(): Promise<void> {
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.flushChain = this.flushChain.then(() => this.flush());
    }
    return this.flushChain;
  }

  private commitInBackground(): void {
    this.commit().catch((error) => this.fail(error));
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const lines = this.pendingLines.splice(0);
    await this.store.save(this.state);
    if (lines.length === 0 || this.outputClosed) return;
    await new Promise<void>((resolve) => {
      this.stdout.write(`${lines.join("\n")}\n`, () => resolve());
    });
    if (this.harnessOutputPaused && this.pendingLines.length <= OUTPUT_LOW_WATER_LINES) {
      this.harnessOutputPaused = false;
      this.harness?.resumeOutput();
    }
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.reachTerminal();
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
