import { CreateosError } from "@paperclipai/errors";

export type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Unwraps `{ "status": "success", "data": { … } }`. */
export function parseEnvelope(text: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CreateosError("ERR_CREATEOS_INVALID_JSON", "CreateOS returned invalid JSON.");
  }
  if (!isObject(parsed) || parsed.status !== "success") {
    throw new CreateosError(
      "ERR_CREATEOS_UNSUCCESSFUL_RESPONSE",
      "CreateOS returned an unsuccessful response.",
    );
  }
  const data = parsed.data ?? {};
  if (!isObject(data)) throw invalidResponse();
  return data;
}

export function invalidResponse(): CreateosError {
  return new CreateosError("ERR_CREATEOS_INVALID_RESPONSE", "CreateOS returned an invalid response.");
}

const RESOURCE_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** A sandbox or process id, safe to put into a URL path. */
export function resourceId(value: unknown): string {
  if (typeof value !== "string" || !RESOURCE_ID.test(value)) {
    throw new CreateosError("ERR_CREATEOS_INVALID_RESOURCE_ID", "CreateOS returned an invalid resource ID.");
  }
  return value;
}

export function objectField(data: JsonObject, key: string): JsonObject {
  const value = data[key];
  if (!isObject(value)) throw invalidResponse();
  return value;
}

export function optionalIntegerField(data: JsonObject, key: string): number | null {
  const value = data[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw invalidResponse();
  return value;
}

export function optionalStringField(data: JsonObject, key: string): string | null {
  const value = data[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw invalidResponse();
  return value;
}
