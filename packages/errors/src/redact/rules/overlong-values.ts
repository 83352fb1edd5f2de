import { findOverlongRuns, overlongValueEnd } from "../overlong-runs.js";
import { MAX_CREDENTIAL_LENGTH, readValue } from "../read-value.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { isSecretValue, namesASecret } from "../secret-values.js";
import { UnquotedValueEnds } from "../unquoted-value-ends.js";
import { keyPatterns, MAX_KEY_SIDE } from "./key-candidates.js";
import { isCommandLike, readAssignment } from "./read-assignment.js";

// Keys tried in one run before it is left to the other rules: each costs at most a value's bound.
const MAX_KEYS_PER_RUN = 16;
// How far into a run a key is looked for here: one found later is redacted the same way by the
// key-assignment rule, after the other rules; searching a whole long run without a key would
// cost as much as those rules save.
const SEARCHED_PER_RUN = 4 * MAX_CREDENTIAL_LENGTH;

/**
 * The value of a sensitive key that runs past MAX_CREDENTIAL_LENGTH without whitespace, `,` or
 * `;` (a dump after `token=`, or `password=` repeated), near the start of its run: redacted to
 * the end of the run (as the key-assignment rule does), first, so the other rules never read
 * what is gone.
 */
export function redactOverlongValues(text: string, context: RedactionContext): string {
  const runs = findOverlongRuns(text, MAX_CREDENTIAL_LENGTH, context);
  if (runs.length === 0) return text;
  const rewriter = new Rewriter(text, context.replacement);
  const valueEnds = new UnquotedValueEnds(text);
  const { keyCandidate } = keyPatterns();
  for (const run of runs) {
    // Searched in the run alone: a run without a key never sends the search past its end.
    const runText = text.slice(
      run.start,
      Math.min(run.end - MAX_CREDENTIAL_LENGTH, run.start + SEARCHED_PER_RUN),
    );
    keyCandidate.lastIndex = 0;
    for (let tried = 0; tried < MAX_KEYS_PER_RUN; tried += 1) {
      const word = keyCandidate.exec(runText);
      if (word === null) break;
      context.steps += 1;
      const wordStart = run.start + word.index;
      const assignment = readAssignment(
        text,
        wordStart,
        run.start + keyCandidate.lastIndex,
        MAX_KEY_SIDE,
        context,
      );
      if ("skipTo" in assignment) {
        keyCandidate.lastIndex = Math.max(keyCandidate.lastIndex, assignment.skipTo - run.start);
        continue;
      }
      if (run.end - assignment.valueStart <= MAX_CREDENTIAL_LENGTH) break;
      const value = readValue(text, assignment.valueStart, assignment.inQuery, context, valueEnds);
      if (value.quoted || assignment.inQuery) continue;
      if (!isSecretValue(assignment.kind, assignment.form, value, context.replacement)) continue;
      if (namesASecret(value.text) && isCommandLike(assignment)) continue;
      rewriter.replace(value.start, overlongValueEnd(text, value.start, run.end));
      break;
    }
  }
  return rewriter.finish();
}
