import type { Writable } from "node:stream";
import { killStaleProcessGroup } from "../harness/process-identity.js";
import type { StateStore } from "../state/state-store.js";
import { CommandProcessor } from "./command-processor.js";
import type { ControllerInput, ControllerLines } from "./controller-lines.js";
import { type HarnessLauncher, HarnessSupervisor } from "./harness-supervisor.js";
import type { LocalLimits } from "./local-options.js";
import type { LocalTimings } from "./local-timings.js";
import { RunLedger } from "./run-ledger.js";

/**
 * One local-mode run: wires the ledger (state and output), the harness
 * supervisor and the command processor, reads controller lines until the run's
 * terminal is out, and answers the lines that were already in when it ended.
 */
export class LocalRunner {
  private readonly ledger: RunLedger;
  private readonly supervisor: HarnessSupervisor;
  private readonly commands: CommandProcessor;
  private readonly terminalReached: Promise<void>;
  private reachTerminal!: () => void;
  private failure: unknown = null;
  private inFlight: Promise<void> = Promise.resolve();
  private readonly lateLines: ControllerInput[] = [];

  constructor(
    private readonly store: StateStore,
    launcher: HarnessLauncher,
    stdout: Writable,
    timings: LocalTimings,
    limits: Pick<LocalLimits, "commandHistoryLimit" | "controllerMaxLineBytes">,
  ) {
    this.terminalReached = new Promise((resolve) => {
      this.reachTerminal = resolve;
    });
    this.ledger = new RunLedger(store, stdout, {
      onBacklog: (backlogged) =>
        backlogged ? this.supervisor.pauseOutput() : this.supervisor.resumeOutput(),
      fail: (error) => this.fail(error),
    });
    this.supervisor = new HarnessSupervisor(this.ledger, launcher, timings, {
      onTerminal: () => this.reachTerminal(),
      fail: (error) => this.fail(error),
    });
    this.commands = new CommandProcessor(this.ledger, this.supervisor, limits);
    stdout.on("error", () => {
      // The controller's end of stdout is gone: nobody can see this run any more.
      this.ledger.closeOutput();
      this.supervisor.stop("controller_closed", null).catch((error: unknown) => this.fail(error));
    });
  }

  /** Runs until the run's terminal event is out; returns the exit code. Rethrows a failure of the state store. */
  async run(input: ControllerLines): Promise<number> {
    try {
      await this.begin();
      await Promise.race([this.readCommands(input.lines), this.terminalReached]);
      // A closed controller or a stop ends the reading first; the terminal follows once the harness is gone.
      await this.terminalReached;
      // The run may end while a command is still being applied; its receipt goes out too.
      await this.inFlight;
      // Lines that had already arrived still get their one answer; answering may take a while, so lines
      // that arrive meanwhile are answered too.
      for (;;) {
        const late = [...this.lateLines.splice(0), ...input.takeBuffered()];
        if (late.length === 0) break;
        for (const line of late) await this.commands.handle(line);
      }
      await this.ledger.commit();
      this.throwIfFailed();
      return 0;
    } finally {
      await this.supervisor.close();
      await this.inFlight.catch(() => undefined);
      await this.ledger.settled();
    }
  }

  /** Stops the run from outside (a signal to the daemon), as runner.shutdown would. */
  requestShutdown(): void {
    this.supervisor.stop("runner_shutdown", null).catch((error: unknown) => this.fail(error));
  }

  /** A fresh run emits nothing until its first command; a resumed one reconciles first. */
  private async begin(): Promise<void> {
    const recovery = this.store.recovery;
    if (recovery === null) return;
    const state = this.ledger.state;
    const staleHarnessKilled = state.harness !== null && killStaleProcessGroup(state.harness);
    this.ledger.replace((current) => ({ ...current, harness: null }));
    // Events the previous daemon persisted may never have reached the controller: the same events again.
    this.ledger.resend(state.outbox);
    const run = state.run;
    const resume = run.terminal === null && run.prepared;
    this.ledger.emit("runner.reconciled", {
      restarts: state.restarts,
      replayedEvents: state.outbox.length,
      ackedSeq: state.ackedSeq,
      lastControllerSeq: state.lastControllerSeq,
      indeterminateCommands: [...recovery.indeterminate],
      abandonedTurn: recovery.abandonedTurn,
      abandonedRequests: [...recovery.abandonedRequests],
      staleHarnessKilled,
      resumedSession: resume && run.session !== null,
      terminal: run.terminal,
    });
    await this.ledger.commit();
    if (run.terminal !== null) {
      this.reachTerminal();
      return;
    }
    if (!resume) return;
    const session = run.session;
    if (session !== null) this.ledger.emit("session.resuming", {});
    await this.supervisor.start(
      session === null
        ? null
        : {
            type: "command",
            commandId: session.commandId,
            command: "session.open",
            payload: session.payload,
            resume: true,
          },
    );
  }

  private async readCommands(lines: AsyncIterable<ControllerInput>): Promise<void> {
    for await (const line of lines) {
      this.throwIfFailed();
      if (this.ledger.run.terminal !== null) {
        // Taken off the queue after the end: answered with the other late lines.
        this.lateLines.push(line);
        return;
      }
      this.inFlight = this.commands.handle(line);
      await this.inFlight;
      if (this.ledger.run.terminal !== null) return;
    }
    this.throwIfFailed();
    if (this.ledger.run.terminal === null) await this.supervisor.stop("controller_closed", null);
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.reachTerminal();
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }
}
