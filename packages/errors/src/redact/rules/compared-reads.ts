import { isDeepStrictEqual } from "node:util";
import type { RedactionContext } from "../redaction-context.js";
import { UnquotedValueEnds } from "../unquoted-value-ends.js";
import { readValue } from "../values.js";
import { readAssignment } from "./key-assignments.js";
import { MAX_KEY_SIDE } from "./key-candidates.js";
import { readPlainAssignment } from "./plain-assignments.js";

// Test support: the fast path's read of a key and the general readers' read of it, side by side
// (plain-assignments*.test.ts).

const contextOf = (): RedactionContext => ({ replacement: "[REDACTED]", steps: 0 });

/** What readAssignment, then readValue, read for the key holding `[wordStart, wordEnd)`, and the steps counted. */
export function generalRead(text: string, wordStart: number, wordEnd: number, rightSide = MAX_KEY_SIDE) {
  const context = contextOf();
  const assignment = readAssignment(text, wordStart, wordEnd, rightSide, context);
  const value =
    "skipTo" in assignment
      ? null
      : readValue(text, assignment.valueStart, assignment.inQuery, context, new UnquotedValueEnds(text));
  return { ...assignment, value, steps: context.steps };
}

/** Which branch of the fast path answered: a value read, or a key that names no secret. */
export type PlainBranch = "unquoted" | "query" | "quoted" | "no secret";

/**
 * readPlainAssignment's answer for the same key: null where it declines, which must count no step,
 * else the branch that answered and whether the answer is the general readers'. `mismatch` holds
 * both answers where they differ, for a failure's message.
 */
export function comparedRead(
  text: string,
  wordStart: number,
  wordEnd: number,
): { branch: PlainBranch | null; mismatch: unknown } {
  const context = contextOf();
  const plain = readPlainAssignment(text, wordStart, wordEnd, MAX_KEY_SIDE, context);
  if (plain === null) {
    return {
      branch: null,
      mismatch: context.steps === 0 ? null : { text, wordStart, stepsOfNull: context.steps },
    };
  }
  const general = generalRead(text, wordStart, wordEnd);
  if ("skipTo" in plain) {
    const answered = { ...plain, value: null, steps: context.steps };
    return {
      branch: "no secret",
      mismatch: isDeepStrictEqual(answered, general) ? null : { text, wordStart, answered, general },
    };
  }
  const answered = { ...plain, steps: context.steps };
  const branch = plain.value.quoted ? "quoted" : plain.inQuery ? "query" : "unquoted";
  return {
    branch,
    mismatch: isDeepStrictEqual(answered, general) ? null : { text, wordStart, answered, general },
  };
}
