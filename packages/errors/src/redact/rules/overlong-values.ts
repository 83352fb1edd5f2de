import { findOverlongRuns } from "../overlong-runs.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { UnquotedValueEnds } from "../unquoted-value-ends.js";
import { isSecretValue, MAX_CREDENTIAL_LENGTH, namesASecret, readValue } from "../values.js";
import { isCommandLike, readAssignment } from "./key-assignments.js";
import { KEY_CANDIDATE, MAX_KEY_SIDE } from "./key-candidates.js";

// Keys tried in one run before it is left to the other rules: each costs at most a value's bound.
const MAX_KEYS_PER_RUN = 16;
// Quotes and a sentence's end after a run belong to the text around it.
const isTrailing = (code: number): boolean => code === 46 || code === 34 || code === 39 || code === 96;

/**
 * The value of a sensitive key that runs past MAX_CREDENTIAL_LENGTH without whitespace, `,` or
 * `;` (a dump after `token=`, or `password=` repeated): redacted to the end of its run, first,
 * so the other rules never read what is gone. Such a run holds no context to keep, and reading
 * it as many bounded values left its tail in the output.
 */
export function redactOverlongValues(text: string, context: RedactionContext): string {
  const runs = findOverlongRuns(text, MAX_CREDENTIAL_LENGTH, context);
  if (runs.length === 0) return text;
  const rewriter = new Rewriter(text);
  const valueEnds = new UnquotedValueEnds(text);
  for (const run of runs) {
    // Searched in the run alone: a run without a key never sends the search past its end.
    const runText = text.slice(run.start, run.end);
    KEY_CANDIDATE.lastIndex = 0;
    for (let tried = 0; tried < MAX_KEYS_PER_RUN; tried += 1) {
      const word = KEY_CANDIDATE.exec(runText);
      if (word === null) break;
      context.steps += 1;
      const wordStart = run.start + word.index;
      const assignment = readAssignment(
        text,
        wordStart,
        run.start + KEY_CANDIDATE.lastIndex,
        MAX_KEY_SIDE,
        context,
      );
      if ("skipTo" in assignment) {
        KEY_CANDIDATE.lastIndex = Math.max(KEY_CANDIDATE.lastIndex, assignment.skipTo - run.start);
        continue;
      }
      if (run.end - assignment.valueStart <= MAX_CREDENTIAL_LENGTH) break;
      const value = readValue(text, assignment.valueStart, assignment.inQuery, context, valueEnds);
      if (value.quoted) continue;
      if (!isSecretValue(assignment.kind, assignment.form, value, context.replacement)) continue;
      if (namesASecret(value.text) && isCommandLike(assignment)) continue;
      let end = run.end;
      while (end > value.start && isTrailing(text.charCodeAt(end - 1))) end -= 1;
      rewriter.replace(value.start, end, context.replacement);
      break;
    }
  }
  return rewriter.finish();
}
