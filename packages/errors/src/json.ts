/** A value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The `details` of an error: a plain JSON object. */
export type ErrorDetails = { [key: string]: JsonValue };
