import type { CommittedEvent, ScenarioOutcome } from "./run-scenario.js";

/** Whether `event` is one of the events Codex's resume notifications become. */
function isResumeNote(event: CommittedEvent | undefined): boolean {
  if (event === undefined) return false;
  if (event.eventType === "session.goal.cleared" || event.eventType === "session.goal.updated") return true;
  return (
    event.eventType === "harness.diagnostic" &&
    (event.payload as { code?: string }).code === "codex_resume_usage_snapshot"
  );
}

/**
 * The outcome with the events of Codex's resume notifications (its replayed usage snapshot as
 * `harness.diagnostic codex_resume_usage_snapshot`, its goal as `session.goal.*`) placed after
 * the next turn's `turn.accepted` when they came right before it.
 *
 * Codex 0.156.1 sends those notifications some hundreds of milliseconds after it answered
 * `thread/resume`. Upstream's runner commits them as they arrive: after the next turn's
 * `turn.accepted` when the server starts that turn at once, before it when the machine is
 * loaded (measured in the `further` scenario: 400 ms after the resume, 100 ms after the
 * acceptance, in one run; 660 ms after the resume, 80 ms before it, in another). Ours holds them
 * back until after the next command's own events, the order upstream's shows unless Codex is
 * first. Nothing the driver can wait for decides it (ours commits nothing of them before the
 * turn), so the comparison takes the two orders as one. Pure.
 */
export function withResumeNotesAfterAcceptance(outcome: ScenarioOutcome): ScenarioOutcome {
  const events = [...outcome.events];
  for (let index = 0; index < events.length; index += 1) {
    if (events[index]?.eventType !== "turn.accepted") continue;
    let first = index;
    while (isResumeNote(events[first - 1])) first -= 1;
    if (first === index) continue;
    const [accepted] = events.splice(index, 1);
    events.splice(first, 0, accepted as CommittedEvent);
  }
  return { ...outcome, events };
}
