/** The harness protocol's name, sent in `ready`. */
export const HARNESS_PROTOCOL = "paperclip.harness.v1";

/** A message a harness writes, one JSON object per stdout line. */
export type HarnessMessage =
  | { readonly type: "ready"; readonly info: Record<string, unknown> }
  | { readonly type: "event"; readonly event: Record<string, unknown> }
  | { readonly type: "request"; readonly requestId: string; readonly request: Record<string, unknown> }
  | { readonly type: "result"; readonly result: unknown }
  | { readonly type: "terminal"; readonly status: string; readonly detail: unknown }
  | { readonly type: "log"; readonly level: string; readonly message: string }
  | { readonly type: "diagnostic"; readonly diagnostic: Record<string, unknown> };

/** A command the runner forwards to the harness on its stdin. */
export interface HarnessCommand {
  readonly type: "command";
  readonly commandId: string;
  readonly command: string;
  readonly payload: Record<string, unknown>;
  /** Set on the session.open a restarted daemon replays to a fresh harness. */
  readonly resume?: true;
}

export type ParsedHarnessLine =
  | { readonly ok: true; readonly message: HarnessMessage }
  | { readonly ok: false; readonly violation: string };

/** Pure: validates one harness stdout line. Anything that is not a known message is a violation. */
export function parseHarnessLine(line: string): ParsedHarnessLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return violation("harness wrote a line that is not JSON");
  }
  if (!isObject(value)) return violation("harness wrote a JSON value that is not an object");
  switch (value.type) {
    case "ready": {
      const { type: _type, ...info } = value;
      return ok({ type: "ready", info });
    }
    case "event":
      return isObject(value.event)
        ? ok({ type: "event", event: value.event })
        : violation("event.event must be an object");
    case "request":
      if (typeof value.requestId !== "string" || value.requestId.length === 0) {
        return violation("request.requestId must be a non-empty string");
      }
      return ok({
        type: "request",
        requestId: value.requestId,
        request: isObject(value.request) ? value.request : {},
      });
    case "result":
      return ok({ type: "result", result: value.result ?? null });
    case "terminal":
      if (typeof value.status !== "string") return violation("terminal.status must be a string");
      return ok({ type: "terminal", status: value.status, detail: value.detail ?? null });
    case "log":
      if (typeof value.message !== "string") return violation("log.message must be a string");
      return ok({
        type: "log",
        level: typeof value.level === "string" ? value.level : "info",
        message: value.message,
      });
    case "diagnostic":
      return isObject(value.diagnostic)
        ? ok({ type: "diagnostic", diagnostic: value.diagnostic })
        : violation("diagnostic.diagnostic must be an object");
    default:
      return violation(`unknown harness message type ${JSON.stringify(value.type ?? null).slice(0, 64)}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function ok(message: HarnessMessage): ParsedHarnessLine {
  return { ok: true, message };
}

function violation(reason: string): ParsedHarnessLine {
  return { ok: false, violation: reason };
}
