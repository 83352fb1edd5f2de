// The commit message rule of CONTRIBUTING.md: a subject of at most 72 characters that says
// what the commit does, then, if there is more to say, a blank line and the details.
// usage: node scripts/repo-checks/src/commit-message.mjs FILE   (the commit-msg hook)
// Plain JavaScript so that the hook runs on any Node without a build step.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

export const SUBJECT_LIMIT = 72;

/**
 * What is wrong with a commit message, as git would record it (comment lines dropped).
 * Merge commits git writes itself (`Merge branch …`) are exempt.
 * @param {string} message
 * @returns {string[]}
 */
export function commitMessageProblems(message) {
  const lines = message
    .split("\n")
    .filter((line) => !line.startsWith("#"))
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  const subject = lines[0] ?? "";
  if (subject.startsWith("Merge ")) return [];
  const problems = [];
  if (subject === "") problems.push("the subject (first line) is empty");
  if (subject.length > SUBJECT_LIMIT) {
    problems.push(
      `the subject is ${subject.length} characters; at most ${SUBJECT_LIMIT}, with the details in the body`,
    );
  }
  if (lines.length > 1 && lines[1] !== "") problems.push("the subject must be followed by a blank line");
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: commit-message.mjs FILE");
    process.exit(2);
  }
  const problems = commitMessageProblems(readFileSync(file, "utf8"));
  for (const problem of problems) console.error(`commit message: ${problem} (see CONTRIBUTING.md)`);
  process.exit(problems.length > 0 ? 1 : 0);
}
