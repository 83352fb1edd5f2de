import { isDeepStrictEqual } from "node:util";
import { readValue } from "../read-value.js";
import type { RedactionContext } from "../redaction-context.js";
import { UnquotedValueEnds } from "../unquoted-value-ends.js";
import { MAX_KEY_SIDE } from "./key-candidates.js";
import { readPlainAssignment } from "./plain-assignments.js";
import { readAssignment } from "./read-assignment.js";

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

type PlainRead = ReturnType<typeof readPlainAssignment>;

/**
 * A fast-path answer (`plain`, with the `steps` it counted) put beside the general readers'
 * (`general`, read only when the fast path answered): null where it declines, which must count no
 * step, else the branch that answered. `mismatch` holds both answers where they differ (with
 * `where`, the text and position), for a failure's message.
 */
export function comparedAnswer(
  plain: PlainRead,
  steps: number,
  general: () => ReturnType<typeof generalRead>,
  where: Record<string, unknown>,
): { branch: PlainBranch | null; mismatch: unknown } {
  if (plain === null)
    return { branch: null, mismatch: steps === 0 ? null : { ...where, stepsOfNull: steps } };
  const answered = { ...plain, ...("skipTo" in plain ? { value: null } : {}), steps };
  const expected = general();
  const branch =
    "skipTo" in plain ? "no secret" : plain.value.quoted ? "quoted" : plain.inQuery ? "query" : "unquoted";
  return {
    branch,
    mismatch: isDeepStrictEqual(answered, expected) ? null : { ...where, answered, general: expected },
  };
}

/** readPlainAssignment's answer for the key holding `[wordStart, wordEnd)`, compared (comparedAnswer). */
export function comparedRead(
  text: string,
  wordStart: number,
  wordEnd: number,
): { branch: PlainBranch | null; mismatch: unknown } {
  const context = contextOf();
  const plain = readPlainAssignment(text, wordStart, wordEnd, MAX_KEY_SIDE, context);
  return comparedAnswer(plain, context.steps, () => generalRead(text, wordStart, wordEnd), {
    text,
    wordStart,
  });
}
