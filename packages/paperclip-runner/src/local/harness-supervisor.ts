import { setTimeout as sleep } from "node:timers/promises";
import { redactSecrets } from "@paperclipai/errors";
import {
  NO_PROCESS_EXIT,
  type ProcessExitFact,
  processExitFact,
  reconcileTerminal,
} from "../events/index.js";
import type { HarnessCommand } from "../harness/harness-message.js";
import { type HarnessExit, HarnessProcess } from "../harness/harness-process.js";
import type { HarnessSpawnSpec } from "../harness/harness-spawn-spec.js";
import { HarnessMessages } from "./harness-messages.js";
import type { LocalTimings } from "./local-timings.js";
import type { StopIntent } from "./run-facts.js";
import type { RunLedger } from "./run-ledger.js";

export interface HarnessLauncher {
  /** Shown in `harness.starting`: the executable's name, never its arguments. */
  readonly label: string;
  /** `fake` for the built-in scripted harness, `command` for `--harness-command`. */
  readonly driverKind: "fake" | "command";
  readonly sandboxed: boolean;
  build(): Promise<HarnessSpawnSpec>;
}

export interface SupervisorHooks {
  /** The run's `run.terminal` is committed. */
  onTerminal(): void;
  fail(error: unknown): void;
}

/**
 * The harness's life: start it and wait for `ready`, forward commands, turn its
 * messages into events (`HarnessMessages`), stop it, and when it is gone end the
 * run with `harness.exited` and the one `run.terminal` the runner decides.
 */
export class HarnessSupervisor {
  private harness: HarnessProcess | null = null;
  private started = false;
  private settled: Promise<void> = Promise.resolve();
  private graceTimer: NodeJS.Timeout | undefined;
  private readonly messages: HarnessMessages;

  constructor(
    private readonly ledger: RunLedger,
    private readonly launcher: HarnessLauncher,
    private readonly timings: LocalTimings,
    private readonly hooks: SupervisorHooks,
  ) {
    this.messages = new HarnessMessages(ledger, launcher.driverKind, {
      violation: (reason) => this.onViolation(reason),
      proposedTerminal: () =>
        this.armGrace(this.timings.terminalExitGraceMs, () => this.ledger.updateRun({ lingered: true })),
      log: (line) => this.harness?.log(line),
      pid: () => this.harness?.pid ?? null,
      fail: (error) => this.hooks.fail(error),
    });
  }

  /** Starts the harness (run.prepare, or a restart resuming the run) and waits until it is ready or gone. */
  async start(resumeSession: HarnessCommand | null): Promise<void> {
    this.ledger.updateRun({ phase: "preparing" });
    this.ledger.emit("runtime.phase.changed", { phase: "workspace_preparing" });
    let spec: HarnessSpawnSpec;
    try {
      spec = await this.launcher.build();
    } catch (error) {
      // No process was started (the sandbox could not be set up).
      this.noteStop("start_failed", describeError(error));
      await this.finish(NO_PROCESS_EXIT, null);
      return;
    }
    if (await this.endedMeanwhile(spec)) return;
    this.ledger.emit("workspace.ready", { workingDirectory: spec.cwd });
    this.ledger.emit("harness.starting", {
      driverKind: this.launcher.driverKind,
      transport: "stdio_jsonl",
      label: this.launcher.label,
      sandboxed: this.launcher.sandboxed,
      resume: resumeSession !== null,
    });
    try {
      await this.ledger.commit();
    } catch (error) {
      // No harness will run in the sandbox set up for it: its proxy and directories go now, not
      // with the process (the directories not even then).
      await spec.cleanup?.().catch(() => undefined);
      throw error;
    }
    if (await this.endedMeanwhile(spec)) return;
    const harness = new HarnessProcess(
      spec,
      {
        onMessage: (message) => this.messages.handle(message),
        onViolation: (reason) => this.onViolation(reason),
      },
      {
        stopGraceMs: this.timings.stopGraceMs,
        maxLineBytes: this.timings.harnessMaxLineBytes,
        logTail: this.timings.logTail,
      },
    );
    this.harness = harness;
    this.started = true;
    this.settled = harness.exited
      .then((exit) => this.onExit(harness, exit))
      .catch((error: unknown) => this.hooks.fail(error));
    this.ledger.replace((state) => ({ ...state, harness: harness.identity }));
    await this.ledger.commit();
    const outcome = await Promise.race([
      this.messages.ready.then(() => "ready" as const),
      harness.exited.then(() => "exited" as const),
      sleep(this.timings.readyTimeoutMs, undefined, { ref: false }).then(() => "timeout" as const),
    ]);
    if (outcome === "ready") {
      if (resumeSession !== null) await harness.send(resumeSession);
      if (this.ledger.run.phase === "preparing") {
        this.ledger.updateRun({ phase: resumeSession === null ? "prepared" : "session_open" });
      }
      await this.ledger.commit();
      return;
    }
    if (outcome === "timeout") {
      this.noteStop("start_failed", `the harness did not say ready within ${this.timings.readyTimeoutMs} ms`);
      await harness.stop();
    }
    await this.settled;
  }

  /** A stop (a signal, a closed controller) may end the run while the harness is being set up: then none starts. */
  private async endedMeanwhile(spec: HarnessSpawnSpec): Promise<boolean> {
    if (this.ledger.run.terminal === null) return false;
    await spec.cleanup?.();
    return true;
  }

  /** Writes a command to the harness's stdin. */
  async forward(command: HarnessCommand): Promise<void> {
    await this.harness?.send(command);
  }

  /** turn.interrupt: forwarded, then the harness has a grace period to wind the turn down and leave by itself. */
  async interrupt(command: HarnessCommand): Promise<void> {
    this.noteStop("interrupted", null);
    await this.ledger.commit();
    await this.forward(command);
    this.armGrace(this.timings.interruptGraceMs, () => undefined);
  }

  /** Ends the run the runner's way: the command (if any) is forwarded, then the harness is stopped. */
  async stop(intent: StopIntent, command: HarnessCommand | null): Promise<void> {
    if (this.ledger.run.terminal !== null) return;
    this.noteStop(intent, null);
    await this.ledger.commit();
    const harness = this.harness;
    if (harness === null) {
      if (!this.started) await this.finish(NO_PROCESS_EXIT, null);
      return;
    }
    if (command !== null) await harness.send(command);
    void harness.stop();
  }

  pauseOutput(): void {
    this.harness?.pauseOutput();
  }

  resumeOutput(): void {
    this.harness?.resumeOutput();
  }

  /** Teardown: nothing of the harness outlives the daemon. */
  async close(): Promise<void> {
    clearTimeout(this.graceTimer);
    if (this.harness !== null) await this.harness.stop();
    await this.settled;
  }

  private noteStop(intent: StopIntent, cause: string | null): void {
    if (this.ledger.run.stopIntent !== null) return;
    this.ledger.updateRun({ stopIntent: intent, stopCause: cause, phase: "stopping" });
  }

  private armGrace(ms: number, beforeStop: () => void): void {
    this.graceTimer ??= setTimeout(() => {
      beforeStop();
      void this.harness?.stop();
    }, ms);
  }

  private onViolation(reason: string): void {
    this.ledger.emit("harness.diagnostic", {
      code: "harness_protocol_violation",
      message: redactSecrets(reason),
    });
    this.noteStop("protocol_violation", reason);
    this.ledger.commit().catch((error: unknown) => this.hooks.fail(error));
    void this.harness?.stop();
  }

  private async onExit(harness: HarnessProcess, exit: HarnessExit): Promise<void> {
    clearTimeout(this.graceTimer);
    if (this.harness === harness) this.harness = null;
    this.ledger.replace((state) => ({ ...state, harness: null }));
    this.messages.settle();
    if (exit.kind === "spawn_failed") {
      this.noteStop("start_failed", exit.message);
      await this.finish(NO_PROCESS_EXIT, exit);
      return;
    }
    if (!this.messages.readyReceived) {
      this.noteStop("start_failed", `the harness ended (${describeExit(exit)}) before it said ready`);
    }
    await this.finish(processExitFact(exit.exitCode, exit.signal), exit);
  }

  /** The run's end: the harness's exit (when one ran), then the one terminal. */
  private async finish(processExit: ProcessExitFact, exit: HarnessExit | null): Promise<void> {
    const run = this.ledger.run;
    if (run.terminal !== null) return;
    if (exit !== null) {
      this.ledger.emit("harness.exited", {
        processExit,
        semanticResultObserved: run.semanticResult !== null,
        logs: exit.logTail,
        ...(exit.kind === "spawn_failed" ? { spawnError: redactSecrets(exit.message) } : {}),
      });
    }
    const payload = reconcileTerminal({
      intent: run.stopIntent ?? "natural",
      processExit,
      stoppedAfterProposal: run.lingered,
      semanticResult: run.semanticResult,
      proposal: run.terminalProposal,
      ...(run.stopCause === null ? {} : { cause: redactSecrets(run.stopCause) }),
    });
    const seq = this.ledger.state.nextEventSeq;
    this.ledger.updateRun({
      phase: "finished",
      terminal: { reason: payload.reconciliation.reason, seq },
      turn: null,
      openRequests: [],
    });
    this.ledger.emit("run.terminal", { ...payload });
    await this.ledger.commit();
    this.hooks.onTerminal();
  }
}

function describeExit(exit: HarnessExit): string {
  if (exit.kind === "spawn_failed") return "spawn failed";
  return exit.signal !== null ? `signal ${exit.signal}` : `exit code ${exit.exitCode}`;
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
