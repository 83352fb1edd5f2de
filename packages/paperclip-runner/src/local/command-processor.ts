import { admitCommand } from "../commands/admit-command.js";
import { commandFingerprint } from "../commands/command-fingerprint.js";
import { type ControllerCommand, parseControllerLine } from "../commands/controller-command.js";
import { RECEIPT_DETAILS } from "../events/index.js";
import type { HarnessCommand } from "../harness/harness-message.js";
import { journalEntry } from "../state/journal-lookup.js";
import type { ControllerInput } from "./controller-lines.js";
import type { HarnessSupervisor } from "./harness-supervisor.js";
import { type CommandPlan, planCommand } from "./plan-command.js";
import type { RunLedger } from "./run-ledger.js";

/** A command plan with an effect beyond the state itself. */
type EffectPlan = Exclude<CommandPlan, { kind: "reject" }>;

/**
 * Applies controller lines exactly once: classifies each line, admits it
 * against the journal and the controllerSeq, plans its effect from the run's
 * facts, journals it `pending` durably before the effect and `done` after, and
 * answers with one receipt. Lines that name no command get a diagnostic.
 */
export class CommandProcessor {
  constructor(
    private readonly ledger: RunLedger,
    private readonly supervisor: HarnessSupervisor,
    private readonly limits: {
      readonly commandHistoryLimit: number;
      readonly controllerMaxLineBytes: number;
    },
  ) {}

  async handle(input: ControllerInput): Promise<void> {
    if (typeof input !== "string") {
      await this.ledger.diagnostic(
        "error",
        `controller command exceeded ${this.limits.controllerMaxLineBytes} bytes (${input.oversizedBytes} bytes skipped)`,
      );
      return;
    }
    if (input.trim() === "") return;
    const parsed = parseControllerLine(input);
    if (parsed.kind === "ack") {
      this.ledger.acknowledge(parsed.ack.throughSeq);
      await this.ledger.commit();
      return;
    }
    if (parsed.kind === "invalid") {
      // Upstream answers a line it cannot read as a command with a diagnostic; one that names its command gets a receipt.
      if (parsed.commandId === null || parsed.controllerSeq === null) {
        await this.ledger.diagnostic("error", parsed.reason);
        return;
      }
      await this.ledger.receipt(
        { commandId: parsed.commandId, controllerSeq: parsed.controllerSeq },
        "rejected",
        parsed.reason,
      );
      return;
    }
    await this.apply(parsed.command);
  }

  private async apply(command: ControllerCommand): Promise<void> {
    const fingerprint = commandFingerprint(command);
    const state = this.ledger.state;
    const admission = admitCommand(
      command,
      fingerprint,
      journalEntry(state.journal, command.commandId),
      state.lastControllerSeq,
      this.ledger.journalSize,
      this.limits.commandHistoryLimit,
    );
    if (admission.kind === "duplicate") {
      await this.ledger.receipt(command, "duplicate", RECEIPT_DETAILS.duplicate, {
        original: admission.original,
      });
      return;
    }
    if (admission.kind === "rejected") {
      const extra =
        admission.expectedControllerSeq === undefined
          ? {}
          : { expectedControllerSeq: admission.expectedControllerSeq };
      await this.ledger.receipt(command, "rejected", admission.detail, extra);
      return;
    }
    const plan = planCommand(this.ledger.run, command.type, command.payload);
    if (plan.kind === "reject") {
      this.ledger.journal(command, fingerprint, "done", { status: "rejected", detail: plan.detail });
      await this.ledger.receipt(command, "rejected", plan.detail);
      return;
    }
    this.ledger.journal(command, fingerprint, "pending", null);
    this.recordIntent(command, plan);
    // Durable before the effect: a crash from here on leaves `pending`, which is never run again.
    // Its lines (turn.submitted) go out with the receipt.
    await this.ledger.persist();
    await this.effect(command, plan);
    this.ledger.journal(command, fingerprint, "done", {
      status: "accepted",
      detail: RECEIPT_DETAILS.applied,
    });
    // The harness's answer to the effect usually follows at once: the receipt shares its commit.
    this.ledger.receiptSoon(command, "accepted", RECEIPT_DETAILS.applied);
  }

  /** The state a command's effect is about to create, persisted with its `pending` entry. */
  private recordIntent(command: ControllerCommand, plan: EffectPlan): void {
    const run = this.ledger.run;
    switch (plan.kind) {
      case "prepare":
        this.ledger.updateRun({ prepared: true, phase: "preparing" });
        return;
      case "open_session":
        this.ledger.updateRun({
          session: { commandId: command.commandId, payload: command.payload },
          phase: "session_open",
        });
        this.ledger.emit("session.starting", {});
        return;
      case "start_turn":
        this.ledger.updateRun({
          turn: { commandId: command.commandId, turnId: plan.turnId },
          phase: "turn_running",
        });
        this.ledger.emit("turn.submitted", { text: command.payload.text ?? null }, { turnId: plan.turnId });
        return;
      case "resolve_request":
        this.ledger.updateRun({ openRequests: run.openRequests.filter((id) => id !== plan.requestId) });
        return;
      case "close_session":
      case "interrupt":
      case "stop":
        return;
    }
  }

  private async effect(command: ControllerCommand, plan: EffectPlan): Promise<void> {
    const forward: HarnessCommand = {
      type: "command",
      commandId: command.commandId,
      command: command.type,
      payload: command.payload,
    };
    switch (plan.kind) {
      case "prepare":
        await this.supervisor.start(null);
        return;
      case "open_session":
      case "start_turn":
      case "resolve_request":
      case "close_session":
        await this.supervisor.forward(forward);
        return;
      case "interrupt":
        await this.supervisor.interrupt(forward);
        return;
      case "stop":
        await this.supervisor.stop(plan.intent, forward);
        return;
    }
  }
}
