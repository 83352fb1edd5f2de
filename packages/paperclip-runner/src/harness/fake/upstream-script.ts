/**
 * Upstream's scripted-harness format (`paperclip.fake_harness.script.v1`), run
 * unchanged by the built-in harness. Its behaviour, from upstream's fake harness:
 * say ready; on `session.open` emit `session.started` and
 * `runtime.phase.changed` (executing); on `turn.start` emit `turn.started`; then
 * run the steps in order; exit 0 after the last one.
 */
export const UPSTREAM_SCRIPT_SCHEMA = "paperclip.fake_harness.script.v1";

/** Upstream's limits on a script. */
export const UPSTREAM_SCRIPT_MAX_BYTES = 1024 * 1024;
export const UPSTREAM_SCRIPT_MAX_STEPS = 4096;
const NAME_MAX_BYTES = 160;

export interface UpstreamScript {
  readonly schema: typeof UPSTREAM_SCRIPT_SCHEMA;
  readonly name: string;
  readonly steps: readonly UpstreamStep[];
}

export type UpstreamStep =
  | { readonly kind: "delay"; readonly milliseconds: number }
  | { readonly kind: "log"; readonly stream: string; readonly text: string }
  | {
      readonly kind: "event";
      readonly eventType: string;
      readonly turnId: string | null;
      readonly itemId: string | null;
      readonly payload: unknown;
    }
  | { readonly kind: "request"; readonly request: unknown }
  | { readonly kind: "await_resolution"; readonly requestId: string }
  | { readonly kind: "await_interrupt" }
  | { readonly kind: "result"; readonly payload: unknown }
  | { readonly kind: "terminal"; readonly payload: unknown }
  | { readonly kind: "spawn_worker" }
  | { readonly kind: "exit"; readonly code: number };

export type UpstreamScriptParse =
  | { readonly ok: true; readonly script: UpstreamScript }
  | { readonly ok: false; readonly reason: string };

/** Pure: checks a parsed upstream script with upstream's own messages. */
export function parseUpstreamScript(value: Record<string, unknown>): UpstreamScriptParse {
  if (value.schema !== UPSTREAM_SCRIPT_SCHEMA) return fail("fake harness script schema is unsupported");
  const name = value.name;
  const steps = value.steps;
  if (
    typeof name !== "string" ||
    name.trim() === "" ||
    Buffer.byteLength(name, "utf8") > NAME_MAX_BYTES ||
    !Array.isArray(steps) ||
    steps.length === 0
  ) {
    return fail("fake harness script requires a name of at most 160 bytes and at least one step");
  }
  if (steps.length > UPSTREAM_SCRIPT_MAX_STEPS)
    return fail(`fake harness script cannot exceed ${UPSTREAM_SCRIPT_MAX_STEPS} steps`);
  const parsed: UpstreamStep[] = [];
  for (const [index, step] of steps.entries()) {
    const one = parseStep(step);
    if (typeof one === "string")
      return fail(`fake harness script must be valid JSON: steps[${index}]: ${one}`);
    parsed.push(one);
  }
  return { ok: true, script: { schema: UPSTREAM_SCRIPT_SCHEMA, name, steps: parsed } };
}

function parseStep(step: unknown): UpstreamStep | string {
  if (step === null || typeof step !== "object" || Array.isArray(step)) return "a step must be an object";
  const record = step as Record<string, unknown>;
  switch (record.kind) {
    case "delay":
      return isCount(record.milliseconds)
        ? { kind: "delay", milliseconds: record.milliseconds }
        : "delay needs milliseconds";
    case "log":
      return typeof record.stream === "string" && typeof record.text === "string"
        ? { kind: "log", stream: record.stream, text: record.text }
        : "log needs stream and text";
    case "event":
      if (typeof record.event_type !== "string") return "event needs event_type";
      return {
        kind: "event",
        eventType: record.event_type,
        turnId: optionalString(record.turn_id),
        itemId: optionalString(record.item_id),
        payload: record.payload ?? null,
      };
    case "request":
      return record.request === undefined
        ? "request needs request"
        : { kind: "request", request: record.request };
    case "await_resolution":
      return typeof record.request_id === "string"
        ? { kind: "await_resolution", requestId: record.request_id }
        : "await_resolution needs request_id";
    case "await_interrupt":
      return { kind: "await_interrupt" };
    case "result":
      return record.payload === undefined
        ? "result needs payload"
        : { kind: "result", payload: record.payload };
    case "terminal":
      return record.payload === undefined
        ? "terminal needs payload"
        : { kind: "terminal", payload: record.payload };
    case "spawn_worker":
      return { kind: "spawn_worker" };
    case "exit":
      return Number.isSafeInteger(record.code)
        ? { kind: "exit", code: record.code as number }
        : "exit needs code";
    default:
      return `unknown variant ${JSON.stringify(record.kind ?? null).slice(0, 40)}`;
  }
}

function optionalString(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function fail(reason: string): UpstreamScriptParse {
  return { ok: false, reason };
}
