import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { commitMessageProblems, SUBJECT_LIMIT } from "../src/commit-message.mjs";
import { repoRoot } from "../src/workspace.js";

const git = (...args: string[]) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" });

describe("commitMessageProblems", () => {
  it("accepts a short subject, alone or with a body after a blank line", () => {
    expect(commitMessageProblems("Add the registry e2e\n")).toEqual([]);
    expect(commitMessageProblems("Add the registry e2e\n\nWhy, in detail.\n# a comment\n")).toEqual([]);
  });

  it(`refuses a subject over ${SUBJECT_LIMIT} characters, an empty one, and a body without a blank line`, () => {
    expect(commitMessageProblems(`${"x".repeat(SUBJECT_LIMIT + 1)}\n`)).toEqual([
      `the subject is ${SUBJECT_LIMIT + 1} characters; at most ${SUBJECT_LIMIT}, with the details in the body`,
    ]);
    expect(commitMessageProblems("# only a comment\n\n")).toEqual(["the subject (first line) is empty"]);
    expect(commitMessageProblems("Subject\nbody at once\n")).toEqual([
      "the subject must be followed by a blank line",
    ]);
  });

  it("leaves the merge commits git writes itself alone", () => {
    expect(commitMessageProblems(`Merge branch '${"x".repeat(80)}'\n`)).toEqual([]);
  });
});

/**
 * Each commit git lists for `args` with its full message, from one `git log` (NUL between
 * commits): a git process per commit took over a minute on a loaded 2-core machine, past
 * the test's timeout, and grew with every commit.
 */
function commits(...args: string[]): { id: string; message: string }[] {
  return git("log", "-z", "--format=%H%n%B", ...args)
    .split("\0")
    .filter(Boolean)
    .map((entry) => {
      const newline = entry.indexOf("\n");
      return { id: entry.slice(0, newline), message: entry.slice(newline + 1) };
    });
}

// The rule holds from the commit that added the hook on: it and every commit that descends
// from it (branches begun before it and merged later keep their old subjects). In a shallow
// clone without that commit, HEAD alone is checked.
describe("the commits since the commit-msg hook", () => {
  it(`have subjects of at most ${SUBJECT_LIMIT} characters`, () => {
    const added = git("log", "--diff-filter=A", "--format=%H", "--", ".githooks/commit-msg")
      .trim()
      .split("\n")
      .pop();
    const checked = added
      ? [...commits("-1", added), ...commits("--ancestry-path", `${added}..HEAD`)]
      : commits("-1", "HEAD");
    expect(checked.length).toBeGreaterThan(0);
    for (const { id, message } of checked) {
      expect(commitMessageProblems(message), `${id.slice(0, 12)} ${message.split("\n")[0]}`).toEqual([]);
    }
  });
});
