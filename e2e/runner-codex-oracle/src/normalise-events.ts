/**
 * Two runners' committed PRP event streams, made comparable: ids become placeholders numbered by
 * first appearance (so "the same id as before" survives), times and process ids become markers,
 * and what is left — event types, order, priorities, payload fields — is compared as is.
 */

export interface PrpEventLike {
  readonly eventType: string;
  readonly priority?: number;
  readonly payload: unknown;
}

export interface NormalisedEvent {
  readonly eventType: string;
  readonly priority: number | null;
  readonly payload: unknown;
}

const ID_KEY = /(^id$|Id$|Ids$|^callId|digest$|Digest$|Fingerprint$|fingerprint$)/;
const VOLATILE_NUMBER_KEY =
  /^(processId|processGroupId|pid|durationMs|activeSeconds|attemptedProcessGeneration)$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/** Normalises one stream; placeholders are numbered per stream, in order of first appearance. */
export function normaliseEvents(events: readonly PrpEventLike[]): NormalisedEvent[] {
  const ids = new Map<string, string>();
  const placeholder = (value: string): string => {
    let name = ids.get(value);
    if (name === undefined) {
      name = `<id${ids.size + 1}>`;
      ids.set(value, name);
    }
    return name;
  };
  const visit = (value: unknown, key: string): unknown => {
    if (typeof value === "string") {
      if (ISO_TIME.test(value)) return "<time>";
      return ID_KEY.test(key) ? placeholder(value) : value;
    }
    if (typeof value === "number") return VOLATILE_NUMBER_KEY.test(key) ? "<number>" : value;
    if (Array.isArray(value)) return value.map((item) => visit(item, key));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((name) => [name, visit((value as Record<string, unknown>)[name], name)]),
      );
    }
    return value;
  };
  return events.map((event) => ({
    eventType: event.eventType,
    priority: event.priority ?? null,
    payload: visit(event.payload, ""),
  }));
}

/** Every difference between two normalised streams, as readable lines (empty when they match). */
export function diffEventStreams(
  reference: readonly NormalisedEvent[],
  candidate: readonly NormalisedEvent[],
): string[] {
  const differences: string[] = [];
  const length = Math.max(reference.length, candidate.length);
  for (let index = 0; index < length; index += 1) {
    const want = reference[index];
    const got = candidate[index];
    if (want === undefined || got === undefined || want.eventType !== got.eventType) {
      // Once the order diverges, payloads no longer line up: report the two remaining sequences.
      differences.push(
        `event #${index + 1}: order differs; reference continues [${types(reference.slice(index))}], candidate continues [${types(candidate.slice(index))}]`,
      );
      break;
    }
    if (want.priority !== got.priority) {
      differences.push(`event #${index + 1} ${want.eventType}: priority ${want.priority} vs ${got.priority}`);
    }
    for (const path of differingPaths(want.payload, got.payload, "payload")) {
      differences.push(`event #${index + 1} ${want.eventType}: ${path}`);
    }
  }
  return differences;
}

function types(events: readonly NormalisedEvent[]): string {
  return events.map((event) => event.eventType).join(", ");
}

function differingPaths(want: unknown, got: unknown, path: string): string[] {
  if (isRecord(want) && isRecord(got)) {
    const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])].sort();
    return keys.flatMap((key) => {
      if (!(key in got)) return [`${path}.${key} missing`];
      if (!(key in want)) return [`${path}.${key} extra`];
      return differingPaths(want[key], got[key], `${path}.${key}`);
    });
  }
  if (JSON.stringify(want) === JSON.stringify(got)) return [];
  return [`${path} ${clip(want)} vs ${clip(got)}`];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function clip(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
