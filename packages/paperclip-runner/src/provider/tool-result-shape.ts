import { hasControlCharacter, invalidType, sortedKeys } from "./serde-shape.js";

/** The typed fields of upstream's tool result, with what `serde_json` expects of each. */
const TYPED_FIELDS: Readonly<Record<string, { readonly type: string; readonly expected: string }>> = {
  callId: { type: "string", expected: "a string" },
  operationId: { type: "string", expected: "a string" },
  isError: { type: "boolean", expected: "a boolean" },
};

/** The fields upstream's tool result cannot do without, in the order it reports them missing. */
const REQUIRED_FIELDS = ["callId", "operationId", "result"] as const;

/**
 * Pure: why upstream's runner cannot read the payload as a tool result, or null. As `serde_json`
 * reads it: each field in key order (a wrong type is reported as it is met: `callId` and
 * `operationId` strings, `isError` a boolean, `null` included), then the first missing one
 * (`isError` defaults to false; `result` is any JSON value, `null` included).
 */
export function resultShapeError(payload: Record<string, unknown>): string | null {
  for (const key of sortedKeys(payload)) {
    const field = TYPED_FIELDS[key];
    if (field !== undefined && typeof payload[key] !== field.type)
      return invalidType(payload[key], field.expected);
  }
  const missing = REQUIRED_FIELDS.find((field) => !Object.hasOwn(payload, field));
  return missing === undefined ? null : `missing field \`${missing}\``;
}

/** Upstream's bound on a result's call id: 1 to 160 UTF-8 bytes, no control character. */
const MAX_CALL_ID_BYTES = 160;

export function validCallId(callId: string): boolean {
  return callId !== "" && Buffer.byteLength(callId) <= MAX_CALL_ID_BYTES && !hasControlCharacter(callId);
}
