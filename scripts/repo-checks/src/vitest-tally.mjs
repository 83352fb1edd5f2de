// The counts behind the closing line of the test command, read from vitest's own summaries.
// Plain JavaScript so that scripts/test.sh runs it on any Node without a build step.

/** @typedef {{ runs: number, passed: number, failed: number, skipped: number }} VitestTally */

const ANSI_ESCAPE = /\x1b\[[0-9;]*m/g;
// turbo prefixes every line of a task with "<package>:<task>: ".
const TURBO_PREFIX = /^\S+:\S+: /;
// "      Tests  2 failed | 40 passed | 1 skipped | 3 todo (46)": the order varies, the words do not.
const SUMMARY = /^\s*Tests\s+((?:\d+ (?:failed|passed|skipped|todo)(?: \| )?)+)\s*\(\d+\)\s*$/;
const COUNT = /(\d+) (failed|passed|skipped|todo)/g;

/**
 * Adds up every vitest summary in a log (turbo's replays of cached runs included).
 * A `todo` test did not run either, so it counts as skipped.
 * @param {string} log
 * @returns {VitestTally}
 */
export function tallyVitestLog(log) {
  const tally = { runs: 0, passed: 0, failed: 0, skipped: 0 };
  for (const rawLine of log.replace(ANSI_ESCAPE, "").split("\n")) {
    const summary = SUMMARY.exec(rawLine.replace(TURBO_PREFIX, ""));
    if (!summary) continue;
    tally.runs += 1;
    for (const [, count, word] of (summary[1] ?? "").matchAll(COUNT)) {
      const key = word === "todo" ? "skipped" : /** @type {"passed" | "failed" | "skipped"} */ (word);
      tally[key] += Number(count);
    }
  }
  return tally;
}

/**
 * @param {Pick<VitestTally, "passed" | "failed" | "skipped">} tally
 * @returns {string}
 */
export function formatTally(tally) {
  return `${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`;
}
