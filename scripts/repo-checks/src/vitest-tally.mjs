// The counts behind the closing line of the test command, read from the JSON reports vitest
// writes (`--reporter=json --outputFile.json=…`), never from its console output.
// Plain JavaScript so that scripts/test.sh runs it on any Node without a build step.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * @typedef {{ reports: number, passed: number, failed: number, skipped: number, failures: string[] }} VitestTally
 * `failures`: one line per failed test or broken file, "file > test: first line of the error",
 * so that the closing lines of a CI log name what failed even when only its tail is kept.
 */
/**
 * The fields of vitest's JSON report this reads.
 * @typedef {{ status: string, fullName?: string, failureMessages?: string[] }} VitestAssertion
 * @typedef {{ name?: string, status: string, message?: string, assertionResults?: VitestAssertion[] }} VitestFileResult
 * @typedef {{ numPassedTests: number, numFailedTests: number, numPendingTests: number,
 *   numTodoTests: number, testResults?: VitestFileResult[] }} VitestJsonReport
 */

/** @param {string | undefined} message */
function firstLine(message) {
  return (message ?? "").trim().split("\n", 1)[0] ?? "";
}

/**
 * One report's counts. A skipped (`pending`) or `todo` test did not run: it counts as skipped.
 * A test file that failed before any of its tests ran (an import error, a failing hook)
 * counts as one failed test, so a broken file can never pass as "0 failed".
 * @param {VitestJsonReport} report
 * @returns {Omit<VitestTally, "reports">}
 */
export function tallyVitestReport(report) {
  /** @type {string[]} */
  const failures = [];
  let brokenFiles = 0;
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) {
      failures.push(`${file.name ?? "?"} > ${test.fullName ?? "?"}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status === "failed" && failedTests.length === 0) {
      brokenFiles += 1;
      failures.push(`${file.name ?? "?"}: ${firstLine(file.message)}`);
    }
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles,
    skipped: report.numPendingTests + report.numTodoTests,
    failures,
  };
}

/**
 * Adds up the reports named `<tag>.json` in the `.vitest-report` directory of each package.
 * @param {readonly string[]} packageDirs absolute package directories
 * @param {string} tag the step's report name
 * @returns {VitestTally}
 */
export function tallyVitestReports(packageDirs, tag) {
  /** @type {VitestTally} */
  const tally = { reports: 0, passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const dir of packageDirs) {
    const file = path.join(dir, ".vitest-report", `${tag}.json`);
    if (!existsSync(file)) continue;
    const counts = tallyVitestReport(
      /** @type {VitestJsonReport} */ (JSON.parse(readFileSync(file, "utf8"))),
    );
    tally.reports += 1;
    tally.passed += counts.passed;
    tally.failed += counts.failed;
    tally.skipped += counts.skipped;
    tally.failures.push(...counts.failures);
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
