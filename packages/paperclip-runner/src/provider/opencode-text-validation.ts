/** A text question's `textValidation` in a `paperclip.question_set.v1` (the OpenCode proxy may send one). */
export interface TextValidation {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
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

/**
 * Pure: why a text answer breaks its question's `textValidation`, or null, in upstream's words
 * (observed with its binary): the length first, counted in UTF-16 units (five emoji are ten),
 * then the pattern, searched anywhere in the text as a JSON Schema pattern is.
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
  return null;
}
