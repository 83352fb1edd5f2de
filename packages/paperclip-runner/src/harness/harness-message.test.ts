import { describe, expect, it } from "vitest";
import { parseHarnessLine } from "./harness-message.js";

describe("parseHarnessLine", () => {
  it("reads each message type", () => {
    expect(parseHarnessLine('{"type":"ready","protocol":"paperclip.harness.v1"}')).toEqual({
      ok: true,
      message: { type: "ready", info: { protocol: "paperclip.harness.v1" } },
    });
    expect(parseHarnessLine('{"type":"event","event":{"k":1}}')).toEqual({
      ok: true,
      message: { type: "event", event: { k: 1 } },
    });
    expect(parseHarnessLine('{"type":"request","request":{"requestId":"r1","type":"input"}}')).toEqual({
      ok: true,
      message: { type: "request", requestId: "r1", request: { requestId: "r1", type: "input" } },
    });
    expect(parseHarnessLine('{"type":"request","requestId":"r2","request":{}}')).toMatchObject({
      message: { requestId: "r2", request: { requestId: "r2" } },
    });
    expect(parseHarnessLine('{"type":"result","result":{"a":1}}')).toEqual({
      ok: true,
      message: { type: "result", result: { a: 1 } },
    });
    expect(parseHarnessLine('{"type":"terminal","terminal":{"runTerminalState":"succeeded"}}')).toEqual({
      ok: true,
      message: { type: "terminal", terminal: { runTerminalState: "succeeded" } },
    });
    expect(parseHarnessLine('{"type":"log","text":"hi"}')).toEqual({
      ok: true,
      message: { type: "log", stream: "stdout", text: "hi" },
    });
    expect(parseHarnessLine('{"type":"diagnostic","diagnostic":{}}')).toEqual({
      ok: true,
      message: { type: "diagnostic", diagnostic: {} },
    });
  });

  it.each([
    ["plain text", "harness wrote a line that is not JSON"],
    ["42", "harness wrote a JSON value that is not an object"],
    ['{"type":"event","event":3}', "event.event must be an object"],
    ['{"type":"request"}', "harness request requires request"],
    ['{"type":"request","request":{}}', "request.requestId must be a string of 1 to 160 characters"],
    ['{"type":"result"}', "harness result requires result"],
    ['{"type":"terminal"}', "harness terminal requires terminal"],
    ['{"type":"log"}', "log.text must be a string"],
    ['{"type":"diagnostic"}', "diagnostic.diagnostic must be an object"],
    ['{"type":"hello"}', 'unknown harness message type "hello"'],
    ["{}", "unknown harness message type null"],
  ])("calls %s a violation", (line, violation) => {
    expect(parseHarnessLine(line)).toEqual({ ok: false, violation });
  });
});

describe("parseHarnessLine on deep JSON", () => {
  // The line's own object is a level: 125 arrays inside `event`'s object make 127 in all.
  const nested = (arrays: number): string =>
    `{"type":"event","event":{"x":${"[".repeat(arrays)}${"]".repeat(arrays)}}}`;

  it("takes 127 levels, as serde_json does, and refuses 128 before parsing", () => {
    expect(parseHarnessLine(nested(125)).ok).toBe(true);
    expect(parseHarnessLine(nested(126))).toEqual({
      ok: false,
      violation: "harness wrote JSON nested deeper than 127 levels",
    });
  });

  it("does not count brackets inside strings", () => {
    expect(parseHarnessLine(`{"type":"log","stream":"stdout","text":"${"[".repeat(500)}"}`).ok).toBe(true);
  });
});
