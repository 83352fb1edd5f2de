/** A text question's `textValidation` in a `paperclip.question_set.v1` (the OpenCode proxy may send one). */
export interface TextValidation {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly inputType?: "text" | "number" | "integer";
  readonly minimum?: number;
  readonly maximum?: number;
}

/** Whether a question's pattern compiles: upstream's runner refuses a question set whose pattern does not. */
export function patternCompiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/** Whether a question's bounds are inverted (upstream's runner refuses such a set, whatever its `inputType`). */
export function boundsInverted(validation: TextValidation): boolean {
  const inverted = (low: number | undefined, high: number | undefined) =>
    typeof low === "number" && typeof high === "number" && low > high;
  return (
    inverted(validation.minLength, validation.maxLength) || inverted(validation.minimum, validation.maximum)
  );
}

/** Rust's spellings of the non-finite numbers (`f64::from_str`, any case), which upstream's runner reads as numbers. */
const NON_FINITE = /^[+-]?(?:inf|infinity|nan)$/i;

/**
 * A number-typed answer's value as upstream's runner reads it (observed with its binary), or
 * null when it is no number: the text trimmed of JavaScript's white space, then a decimal
 * (`5.`, `.5`, `+1e1`), an unsigned `0x`/`0o`/`0b` integer, or `inf`/`infinity`/`nan` in any
 * case: what `Number()` takes, with those three added.
 */
function numericValue(text: string): number | null {
  const trimmed = text.trim();
  if (NON_FINITE.test(trimmed)) return /nan$/i.test(trimmed) ? Number.NaN : Number.POSITIVE_INFINITY;
  const value = Number(trimmed);
  return trimmed === "" || Number.isNaN(value) ? null : value;
}

/** Why a number-typed answer breaks its question's `inputType`, `minimum` and `maximum`, or null. */
function numericProblem(id: string, validation: TextValidation, text: string): string | null {
  const value = numericValue(text);
  if (value === null) return `answer ${id} must be numeric`;
  const { minimum, maximum } = validation;
  if (
    !Number.isFinite(value) ||
    (validation.inputType === "integer" && !Number.isInteger(value)) ||
    (typeof minimum === "number" && value < minimum) ||
    (typeof maximum === "number" && value > maximum)
  )
    return `answer ${id} violates its numeric constraint`;
  return null;
}

/**
 * Pure: why a text answer breaks its question's `textValidation`, or null, in upstream's words
 * (observed with its binary): the length first, counted in UTF-16 units (five emoji are ten) of
 * the text as given, then the pattern, searched anywhere in the text as a JSON Schema pattern
 * is, then, for an `inputType` of `number` or `integer` alone, the value: a number (else "must
 * be numeric"), finite, whole for `integer`, within `minimum` and `maximum` (else "violates its
 * numeric constraint").
 */
export function textValidationProblem(
  id: string,
  validation: TextValidation | undefined,
  text: string,
): string | null {
  if (validation === undefined) return null;
  const { minLength, maxLength, pattern } = validation;
  if (
    (typeof minLength === "number" && text.length < minLength) ||
    (typeof maxLength === "number" && text.length > maxLength)
  )
    return `answer ${id} violates its text length constraint`;
  if (typeof pattern === "string" && !new RegExp(pattern, "u").test(text))
    return `answer ${id} does not match its required pattern`;
  if (validation.inputType === "number" || validation.inputType === "integer")
    return numericProblem(id, validation, text);
  return null;
}
