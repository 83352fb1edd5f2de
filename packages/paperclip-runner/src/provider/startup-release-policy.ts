import type { ProviderEvent } from "./provider-event.js";

/**
 * When held startup facts (a session.open's, a resume's) are committed around a command:
 * `keep` leaves them held, `kept-as-drained` leaves them held as a first drain does (the next
 * drain's commit follows its answer), `before` commits them before the command is handled,
 * `after-effect` once the command's own events are committed (a turn's turn.accepted first),
 * `after-answer` some time after the command's answer is sent (unless a command comes first),
 * `carry` saves them for the next run's runner instead (`startup-carry.ts`).
 */
export type StartupRelease =
  | "keep"
  | "kept-as-drained"
  | "before"
  | "after-effect"
  | "after-answer"
  | "carry";

/**
 * Where the server's drains left the held facts: none came yet, the first kept them, or a later
 * one answered and their commit is due (`releasing`).
 */
export type DrainState = "none" | "kept" | "releasing";

/**
 * Commands after which upstream's runner still holds the startup facts back (a close as if they
 * were fresh: the drains behind it answer as behind a session.open, `held-startup-release.ts`).
 */
const KEEPS_STARTUP_FACTS_HELD: ReadonlySet<string> = new Set([
  "session.goal.get",
  "session.goal.set",
  "session.goal.clear",
  "session.snapshot",
  "session.budget.increase",
  "session.close",
  "session.destroy",
]);

/**
 * Commands that, with no turn active, leave held facts as a first drain does: upstream's runner
 * answers the drains behind them F,F,T (a session.open's F,F,F,T without them), observed with its
 * binary behind `session.open` then a `run.cancel`, `turn.interrupt` or `turn.stop`, one or two of
 * them, a drain before them or not.
 */
const SETTLE_AS_DRAINED: ReadonlySet<string> = new Set(["run.cancel", "turn.interrupt", "turn.stop"]);

/**
 * How long after a later drain's answer upstream's runner commits the held facts when no
 * command comes first (measured with its runner and the fake app-server: 255 to 285 ms).
 */
export const DRAIN_RELEASE_DELAY_MS = 250;

/**
 * Pure: upstream's order, as its runner shows it with the fake app-server. A suspend or shutdown
 * carries held facts to the next run, whatever the drains did. The first `runner.drain` while
 * facts are held keeps them (a restarted runner's resume probe, or the drain right behind a
 * session.open); a later one answers (`retainedEventsDrained:false`) and commits them some time
 * after its answer, or before the next command, unless that is a suspend, which carries them.
 * A cancel, interrupt or stop leaves them as a first drain when `cancelKeepsFacts` says so.
 */
export function startupRelease(
  commandType: string,
  drain: DrainState,
  cancelKeepsFacts: boolean,
): StartupRelease {
  if (commandType === "runner.suspend" || commandType === "runner.shutdown") return "carry";
  if (drain === "releasing") return "before";
  if (commandType === "runner.drain") return drain === "kept" ? "after-answer" : "keep";
  if (SETTLE_AS_DRAINED.has(commandType) && cancelKeepsFacts) return "kept-as-drained";
  return KEEPS_STARTUP_FACTS_HELD.has(commandType) ? "keep" : "after-effect";
}

/**
 * Pure: what a drain commits of a resume's held facts: all but the diagnostic for the token-usage
 * snapshot Codex replayed while it resumed, which upstream's runner leaves out there.
 */
export function releasedOnDrain<T extends Pick<ProviderEvent, "payload">>(events: readonly T[]): T[] {
  return events.filter((event) => event.payload.code !== "codex_resume_usage_snapshot");
}

/**
 * Pure: whether a cancel, interrupt or stop leaves held facts as a first drain would. Upstream's
 * runner does so with no turn active for a fresh `session.open`'s facts and for a restart's after
 * a `turn.stop` (`ensured`). A resume's facts (a restarted runner's, a provider restart's) keep
 * the rule they had before (committed after the command's effect): that case was not compared.
 */
export function cancelKeepsHeldFacts(
  held: { readonly resume: boolean; readonly ensured?: boolean } | null,
  turnActive: boolean,
): boolean {
  return held !== null && !turnActive && (!held.resume || held.ensured === true);
}
