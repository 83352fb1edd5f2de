import type { ProviderEvent } from "./provider-event.js";

/**
 * When held startup facts (a session.open's, a resume's) are committed around a command:
 * `keep` leaves them held, `before` commits them before the command's answer (durable mode's
 * own commands), `after-effect` once the command's own events are committed (a turn's
 * turn.accepted first), `after-answer` just after the command's answer is sent.
 */
export type StartupRelease = "keep" | "before" | "after-effect" | "after-answer";

/** Commands after which upstream's runner still holds the startup facts back. */
const KEEPS_STARTUP_FACTS_HELD: ReadonlySet<string> = new Set([
  "session.goal.get",
  "session.goal.set",
  "session.goal.clear",
  "session.snapshot",
  "session.budget.increase",
]);

/**
 * Pure: upstream's order, as its runner shows it with the fake app-server. The first
 * `runner.drain` while facts are held keeps them (a restarted runner's resume probe, or the
 * drain right behind a session.open); a later one answers first (`retainedEventsDrained:false`)
 * and commits them just after its answer. A suspend or shutdown commits them before its answer:
 * upstream's runner carries them to the next run instead, which this runner does not.
 */
export function startupRelease(commandType: string, drainAlreadySeen: boolean): StartupRelease {
  if (commandType === "runner.drain") return drainAlreadySeen ? "after-answer" : "keep";
  if (commandType === "runner.suspend" || commandType === "runner.shutdown") return "before";
  return KEEPS_STARTUP_FACTS_HELD.has(commandType) ? "keep" : "after-effect";
}

/**
 * Pure: what a drain commits of a resume's held facts: all but the diagnostic for the token-usage
 * snapshot Codex replayed while it resumed, which upstream's runner leaves out there.
 */
export function releasedOnDrain(events: readonly ProviderEvent[]): ProviderEvent[] {
  return events.filter((event) => event.payload.code !== "codex_resume_usage_snapshot");
}
