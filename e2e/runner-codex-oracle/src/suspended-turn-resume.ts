import type { CommittedEvent, ScenarioOutcome } from "./run-scenario.js";

/** The index of the first event after `from` that `predicate` holds for (-1 when none). */
const after = (
  events: readonly CommittedEvent[],
  from: number,
  predicate: (event: CommittedEvent) => boolean,
) => events.findIndex((event, index) => index > from && predicate(event));

/**
 * What a runner commits when the next run resumes a thread whose turn a `runner.suspend` left in
 * flight (a tool call pending): its startup facts, `session.resumed`, the pending call failed,
 * `session.reconciled`, the lost turn's `turn.failed`, and the next turn's `turn.accepted`,
 * accepted first, in the order upstream's runner commits them: it holds the rest until after the
 * next turn's acceptance, as after a clean suspend. Ours commits them at the resume probe, as both
 * runners do after a SIGKILL (`recovery-tool`), so its acceptance is moved to the front here.
 * Pure; null when the outcome has no such resume.
 */
export function suspendedTurnResume(outcome: ScenarioOutcome): CommittedEvent[] | null {
  const { events } = outcome;
  const reconciledRunner = events.findIndex((event) => event.eventType === "runner.reconciled");
  const accepted = after(events, reconciledRunner, (event) => event.eventType === "turn.accepted");
  const reconciled = after(events, reconciledRunner, (event) => event.eventType === "session.reconciled");
  const lostTurn = after(events, reconciled, (event) => event.eventType === "turn.failed");
  if (reconciledRunner < 0 || accepted < 0 || lostTurn < 0) return null;
  const segment = events.slice(reconciledRunner + 1, Math.max(accepted, lostTurn) + 1);
  const acceptance = events[accepted] as CommittedEvent;
  return [acceptance, ...segment.filter((event) => event !== acceptance)];
}
