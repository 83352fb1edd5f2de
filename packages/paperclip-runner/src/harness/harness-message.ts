import { MAX_JSON_NESTING, nestsDeeperThan } from "../provider/json-nesting.js";

/** The harness protocol's name, sent in `ready`. */
export const HARNESS_PROTOCOL = "paperclip.harness.v1";

/** A message a harness writes, one JSON object per stdout line. */
export type HarnessMessage =
  | { readonly type: "ready"; readonly info: Record<string, unknown> }
  /** A PRP event to lift: `{ eventType, turnId?, itemId?, payload? }`. */
  | { readonly type: "event"; readonly event: Record<string, unknown> }
  /** A runtime request; `request.requestId` is the id `request.resolve` names. */
  | { readonly type: "request"; readonly requestId: string; readonly request: Record<string, unknown> }
  /** A structured run result (`paperclip.run_result.v1`). */
  | { readonly type: "result"; readonly result: unknown }
  /** A terminal proposal (`paperclip.prp.terminal.v1`): recorded and compared, never obeyed. */
  | { readonly type: "terminal"; readonly terminal: unknown }
  | { readonly type: "log"; readonly stream: string; readonly text: string }
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
  // Before the parse: a 64 KiB line nests 32 000 levels, past the stack of every recursive walk
  // over it (JSON.stringify of the stream line first); upstream reads it with serde_json's 128.
  if (nestsDeeperThan(line))
    return violation(`harness wrote JSON nested deeper than ${MAX_JSON_NESTING} levels`);
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
    case "request": {
      if (!isObject(value.request)) return violation("harness request requires request");
      const requestId = value.request.requestId ?? value.requestId;
      if (typeof requestId !== "string" || requestId.length === 0 || requestId.length > 160) {
        return violation("request.requestId must be a string of 1 to 160 characters");
      }
      return ok({ type: "request", requestId, request: { ...value.request, requestId } });
    }
    case "result":
      return value.result === undefined
        ? violation("harness result requires result")
        : ok({ type: "result", result: value.result });
    case "terminal":
      return value.terminal === undefined
        ? violation("harness terminal requires terminal")
        : ok({ type: "terminal", terminal: value.terminal });
    case "log":
      if (typeof value.text !== "string") return violation("log.text must be a string");
      return ok({
        type: "log",
        stream: typeof value.stream === "string" ? value.stream : "stdout",
        text: value.text,
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
