import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { tempDirForFile } from "@paperclipai/test-support";
import { beforeAll, describe, expect, it } from "vitest";
import { formatTally, tallyVitestReport, tallyVitestReports } from "../src/vitest-tally.mjs";
import { repoRoot } from "../src/workspace.js";

const run = promisify(execFile);
const workDir = tempDirForFile("paperclip-vitest-tally-");
let packageDir = "";

// A real vitest run over files of every outcome, reported as the test command reports it.
const FIXTURES: Record<string, string> = {
  "passing.test.js": 'test("one", () => {}); test("two", () => {});',
  "mixed.test.js":
    'test("fails", () => { expect(1).toBe(2); }); test.skip("skipped", () => {}); test.todo("todo");',
  "broken.test.js": 'throw new Error("a file that fails before its tests run");',
};

beforeAll(async () => {
  packageDir = path.join(workDir, "pkg");
  await mkdir(packageDir);
  for (const [name, source] of Object.entries(FIXTURES)) await writeFile(path.join(packageDir, name), source);
  const vitest = path.join(repoRoot, "node_modules/vitest/vitest.mjs");
  const args = [
    "run",
    "--root",
    packageDir,
    "--globals",
    "--reporter=json",
    "--outputFile.json=.vitest-report/step-1.json",
  ];
  // vitest exits 1 (a test failed): the report is what counts.
  await run(process.execPath, [vitest, ...args], { cwd: packageDir }).catch(() => undefined);
}, 60_000);

describe("the closing tally, from vitest's JSON reports", () => {
  it("counts passed, failed, skipped and todo tests, and a file that broke before its tests as failed", () => {
    expect(tallyVitestReports([packageDir], "step-1")).toMatchObject({
      reports: 1,
      passed: 2,
      failed: 2,
      skipped: 2,
    });
  });

  it("names each failed test and broken file with the first line of its error", () => {
    const failures = tallyVitestReports([packageDir], "step-1").failures.map((line) =>
      line.replace(packageDir, "<pkg>"),
    );
    expect(failures.sort()).toEqual([
      "<pkg>/broken.test.js: a file that fails before its tests run",
      "<pkg>/mixed.test.js > fails: AssertionError: expected 1 to be 2 // Object.is equality",
    ]);
  });

  it("reads only the step's own reports", () => {
    expect(tallyVitestReports([packageDir, workDir], "step-2")).toEqual({
      reports: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [],
    });
  });

  it("does not count a failed file twice when its failure is a failed test", () => {
    const report = {
      numPassedTests: 0,
      numFailedTests: 1,
      numPendingTests: 0,
      numTodoTests: 0,
      testResults: [{ status: "failed", assertionResults: [{ status: "failed" }] }],
    };
    expect(tallyVitestReport(report)).toMatchObject({ passed: 0, failed: 1, skipped: 0 });
  });

  it("formats the closing line", () => {
    expect(formatTally({ passed: 3, failed: 1, skipped: 2 })).toBe("3 passed, 1 failed, 2 skipped");
  });
});
