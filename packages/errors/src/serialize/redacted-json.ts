import type { JsonValue } from "../json.js";
import { redactKeyedValue } from "../redact/redact-keyed-value.js";
import { type SerializeBudget, TRUNCATED } from "./serialize-budget.js";

/** How deep `details` are followed; deeper values become `[Truncated]`. */
export const MAX_DETAIL_DEPTH = 16;

/** A value that could not be read (a getter or a Proxy trap threw). */
export const UNREADABLE = "[Unreadable]";

/** Sets an own property, even one named `__proto__` (plain assignment would replace the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

function safeGet(target: object, key: PropertyKey): unknown {
  try {
    return (target as Record<PropertyKey, unknown>)[key];
  } catch {
    return undefined;
  }
}

function tagOf(value: object): string {
  return Object.prototype.toString.call(value).slice(8, -1);
}

/** `[Uint8Array: 24 bytes]`: binary data is never copied, since it may hold a secret no text rule can see. */
function describeBinary(value: ArrayBufferView | ArrayBuffer): string {
  return `[${tagOf(value)}: ${value.byteLength} bytes]`;
}

interface Walk {
  readonly budget: SerializeBudget;
  /** The objects on the path from the root: a second visit is a cycle. */
  readonly ancestors: Set<object>;
}

function entriesOf(value: object): [string, unknown][] | null {
  if (value instanceof Map) {
    return [...Map.prototype.entries.call(value)].map(([key, item]) => [
      typeof key === "string" ? key : String(key),
      item,
    ]);
  }
  return null;
}

function objectToJson(value: object, depth: number, walk: Walk, key: string | undefined): JsonValue {
  if (value instanceof Date) {
    const time = Date.prototype.getTime.call(value);
    return Number.isFinite(time) ? Date.prototype.toISOString.call(value) : "Invalid Date";
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return describeBinary(value);
  const isList = Array.isArray(value) || value instanceof Set;
  if (isList) {
    const items = value instanceof Set ? [...Set.prototype.values.call(value)] : (value as unknown[]);
    const length = items.length;
    if (!walk.budget.takeValue(length)) return TRUNCATED;
    const result: JsonValue[] = [];
    for (let index = 0; index < length; index += 1) {
      if (walk.budget.exhausted) {
        result.push(TRUNCATED);
        break;
      }
      // Items of a list inherit its key: `passwords: ["a", "b"]`.
      result.push(toRedactedJson(safeGet(items, index), depth + 1, walk, key));
    }
    return result;
  }
  const entries =
    entriesOf(value) ?? Object.keys(value).map((key): [string, unknown] => [key, safeGet(value, key)]);
  if (!walk.budget.takeValue(entries.length)) return TRUNCATED;
  const result: Record<string, JsonValue> = {};
  for (let index = 0; index < entries.length; index += 1) {
    if (walk.budget.exhausted) {
      setOwn(result, TRUNCATED, `${entries.length - index} more keys`);
      break;
    }
    const [name, item] = entries[index] as [string, unknown];
    if (item === undefined) continue;
    // A key can hold a secret too (`{ "sk-…": 1 }`); the value is judged by the key as written.
    setOwn(result, walk.budget.text(name), toRedactedJson(item, depth + 1, walk, name));
  }
  return result;
}

/**
 * Copies a value into plain JSON: strings redacted (by their key too) and bounded, finite
 * numbers, no cycles, bounded depth and size. Never throws: an unreadable part becomes
 * `[Unreadable]` and the rest is kept.
 */
export function toRedactedJson(
  value: unknown,
  depth: number,
  walk: Walk,
  key: string | undefined,
): JsonValue {
  try {
    if (typeof value === "string") return walk.budget.text(value, (text) => redactKeyedValue(key, text));
    if (!walk.budget.takeValue(0, typeof value === "number" ? 4 + String(value).length : 4)) return TRUNCATED;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return String(value);
      // A number under a password key is a secret too (`pin`, `password: 123456`).
      const text = String(value);
      const redacted = redactKeyedValue(key, text);
      return redacted === text ? value : redacted;
    }
    if (typeof value === "boolean" || value === null) return value;
    if (value === undefined) return null;
    if (typeof value !== "object")
      return walk.budget.text(String(value), (text) => redactKeyedValue(key, text));
    if (walk.ancestors.has(value)) return "[Circular]";
    if (depth >= MAX_DETAIL_DEPTH) return TRUNCATED;
    walk.ancestors.add(value);
    try {
      return objectToJson(value, depth, walk, key);
    } finally {
      walk.ancestors.delete(value);
    }
  } catch {
    return UNREADABLE;
  }
}

/** `details` as plain, redacted, bounded JSON. */
export function detailsToJson(details: object, budget: SerializeBudget): Record<string, JsonValue> {
  const json = toRedactedJson(details, 0, { budget, ancestors: new Set() }, undefined);
  return typeof json === "object" && json !== null && !Array.isArray(json) ? json : { value: json };
}
