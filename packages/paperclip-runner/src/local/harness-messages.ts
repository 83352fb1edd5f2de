import { redactSecrets } from "@paperclipai/errors";
import { liftHarnessEvent, runResultProblem } from "../events/index.js";
import type { HarnessMessage } from "../harness/harness-message.js";
import { phaseAfterTurn } from "./run-facts.js";
import type { RunLedger } from "./run-ledger.js";

type MessageOf<T extends HarnessMessage["type"]> = Extract<HarnessMessage, { type: T }>;

const TURN_ENDS: ReadonlySet<string> = new Set([
  "turn.completed",
  "turn.failed",
  "turn.interrupted",
  "turn.cancelled",
]);

export interface HarnessMessageHooks {
  violation(reason: string): void;
  /** The harness proposed its terminal: it should now exit. */
  proposedTerminal(): void;
  /** A line for the bounded log tail of `harness.exited`. */
  log(line: string): void;
  pid(): number | null;
  fail(error: unknown): void;
}

/**
 * Runtime requests a harness may hold open at once, as a provider may hold 4096 tool calls. Each
 * new one cost a pass over those open (20 000 took 4 s of the daemon's loop, 40 000 took 20 s):
 * unbounded, a harness writing requests kept the daemon busy for hours.
 */
export const MAX_OPEN_REQUESTS = 4096;

/**
 * What the runner makes of each harness message: `ready` once, events lifted
 * to the top level of the stream, requests as `runtime_request.created`, the
 * first result as `run.result.proposed` and the first terminal proposal kept
 * (later ones become `harness.diagnostic`s, as upstream decides), logs and
 * diagnostics into the log tail.
 */
export class HarnessMessages {
  readonly ready: Promise<void>;
  private markReady!: () => void;
  private readySeen = false;

  constructor(
    private readonly ledger: RunLedger,
    private readonly driverKind: string,
    private readonly hooks: HarnessMessageHooks,
  ) {
    this.ready = new Promise((resolve) => {
      this.markReady = resolve;
    });
  }

  get readyReceived(): boolean {
    return this.readySeen;
  }

  /** The harness is gone: nothing waits for its ready any more. */
  settle(): void {
    this.markReady();
  }

  handle(message: HarnessMessage): void {
    if (
      !this.readySeen &&
      message.type !== "ready" &&
      message.type !== "log" &&
      message.type !== "diagnostic"
    ) {
      this.hooks.violation(`harness sent ${message.type} before ready`);
      return;
    }
    this.apply(message);
    this.ledger.commitAfterPoll();
  }

  private apply(message: HarnessMessage): void {
    switch (message.type) {
      case "ready":
        this.onReady(message);
        return;
      case "event":
        this.onEvent(message);
        return;
      case "request":
        this.onRequest(message);
        return;
      case "result":
        this.onResult(message);
        return;
      case "terminal":
        this.onTerminal(message);
        return;
      case "log":
        this.hooks.log(`${message.stream}: ${message.text}`);
        return;
      case "diagnostic":
        this.hooks.log(`diagnostic: ${redactSecrets(JSON.stringify(message.diagnostic))}`);
        return;
    }
  }

  /** The first `ready` is `harness.ready`; a later one is only a warning. */
  private onReady(message: MessageOf<"ready">): void {
    if (this.readySeen) {
      this.ledger
        .diagnostic("warning", "duplicate harness ready message ignored")
        .catch((error: unknown) => this.hooks.fail(error));
      return;
    }
    this.readySeen = true;
    this.ledger.emit("harness.ready", {
      driverKind: this.driverKind,
      driverVersion: typeof message.info.version === "string" ? message.info.version : "1.0.0",
      transport: "stdio_jsonl",
      pid: this.hooks.pid(),
      info: message.info,
    });
    this.markReady();
  }

  /** An event lifted to the top level of the stream; one the runner does not forward becomes a diagnostic. */
  private onEvent(message: MessageOf<"event">): void {
    const run = this.ledger.run;
    const lifted = liftHarnessEvent(message.event);
    if (lifted.kind === "violation") {
      this.hooks.violation(lifted.reason);
      return;
    }
    if (lifted.kind === "not_forwarded") {
      this.ledger.emit("harness.diagnostic", {
        code: "harness_event_not_forwarded",
        eventType: lifted.eventType,
        message: `harness event ${lifted.eventType} was not forwarded: ${lifted.reason}`,
      });
      return;
    }
    this.ledger.emit(lifted.eventType, lifted.payload, { turnId: lifted.turnId, itemId: lifted.itemId });
    // The harness says its turn ended: the session takes the next turn.start.
    if (TURN_ENDS.has(lifted.eventType) && run.turn !== null) {
      this.ledger.updateRun({ turn: null, phase: phaseAfterTurn(run.phase) });
    }
  }

  private onRequest(message: MessageOf<"request">): void {
    const run = this.ledger.run;
    if (!run.openRequests.includes(message.requestId)) {
      if (run.openRequests.length >= MAX_OPEN_REQUESTS) {
        this.hooks.violation(`harness holds more than ${MAX_OPEN_REQUESTS} runtime requests open`);
        return;
      }
      this.ledger.updateRun({ openRequests: [...run.openRequests, message.requestId] });
    }
    this.ledger.emit("runtime_request.created", { request: message.request });
  }

  /** The first structured result is proposed and ends the turn; a later one is only a diagnostic. */
  private onResult(message: MessageOf<"result">): void {
    const run = this.ledger.run;
    if (run.semanticResult !== null) {
      this.ledger.emit("harness.diagnostic", {
        code: "duplicate_semantic_result_ignored",
        message: "Duplicate semantic result ignored; the first result remains authoritative.",
      });
      return;
    }
    const problem = runResultProblem(message.result);
    if (problem !== null) {
      this.hooks.violation(`harness result is not a structured run result: ${problem}`);
      return;
    }
    this.ledger.updateRun({ semanticResult: message.result, turn: null, phase: phaseAfterTurn(run.phase) });
    this.ledger.emit("run.result.proposed", message.result as Record<string, unknown>);
  }

  /** The first terminal proposal is kept and the harness asked to exit; a later one is only a diagnostic. */
  private onTerminal(message: MessageOf<"terminal">): void {
    if (this.ledger.run.terminalProposal !== null) {
      this.ledger.emit("harness.diagnostic", {
        code: "duplicate_terminal_ignored",
        message: "Duplicate terminal event ignored; the first terminal event remains authoritative.",
      });
      return;
    }
    this.ledger.updateRun({ terminalProposal: message.terminal });
    this.hooks.proposedTerminal();
  }
}
