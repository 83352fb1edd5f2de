import { expect } from "vitest";
import {
  type CommittedEvent,
  closeSteps,
  type DriverResult,
  driveCodexRunner,
  type ServerToolchain,
  type Step,
  withWork,
} from "./codex-durable.js";
import { upstreamRunner } from "./upstream-runner.js";

// Differential: upstream's Rust runner and ours on the same inputs, the real control plane and the
// fake app-server, compared on when held startup facts are committed around the server's drains.

/** The events whose order this compares: the session's, the startup facts, the turn's acceptance. */
const ORDERED = new Set(["session.started", "session.resumed", "runner.reconciled", "turn.accepted"]);

export function orderedFacts(events: readonly CommittedEvent[]): string[] {
  return events
    .filter((event) => ORDERED.has(event.eventType) || event.eventType === "harness.diagnostic")
    .map((event) =>
      event.eventType === "harness.diagnostic" ? `diagnostic:${String(event.payload.code)}` : event.eventType,
    );
}

/** Each drain's answer, by command id. */
export function drainAnswers(result: DriverResult): Record<string, unknown> {
  return Object.fromEntries(
    result.commands
      .filter((command) => command.type === "runner.drain")
      .map((command) => [command.commandId, command.result.result?.retainedEventsDrained]),
  );
}

/** What a command was answered with (its result's outcome). */
export function commandOutcome(result: DriverResult, commandId: string): unknown {
  return result.commands.find((command) => command.commandId === commandId)?.result.result;
}

/** One runner (ours unless `runnerBin` names another) through the steps, which it must run through. */
export async function driveThrough(
  tools: ServerToolchain,
  steps: (work: string) => Step[],
  runnerBin?: string,
): Promise<DriverResult> {
  const result = await withWork((work) =>
    driveCodexRunner(tools, work, steps(work), runnerBin === undefined ? {} : { runnerBin }),
  );
  expect(result.failure).toBeNull();
  expect(result.invalid).toEqual([]);
  return result;
}

/** Ours, then upstream's runner, on the same steps; both must run them through. */
export async function bothRunners(
  tools: ServerToolchain,
  steps: (work: string) => Step[],
): Promise<[DriverResult, DriverResult]> {
  const ours = await driveThrough(tools, steps);
  const upstream = await driveThrough(tools, steps, upstreamRunner());
  return [ours, upstream];
}

export const drain = (id: string): Step[] => [
  { op: "queue", type: "runner.drain", id },
  { op: "command", id },
];
export const turnThenClose: Step[] = [
  { op: "queue", type: "turn.start", payload: { text: "first" }, id: "turn-1" },
  { op: "event", type: "run.terminal" },
  ...closeSteps,
];
export const STARTUP_FACTS = [
  "diagnostic:provider_startup_ownership",
  "diagnostic:provider_startup_ownership",
];
