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
    expect(parseHarnessLine('{"type":"request","requestId":"r1"}')).toEqual({
      ok: true,
      message: { type: "request", requestId: "r1", request: {} },
    });
    expect(parseHarnessLine('{"type":"result"}')).toEqual({
      ok: true,
      message: { type: "result", result: null },
    });
    expect(parseHarnessLine('{"type":"terminal","status":"succeeded"}')).toEqual({
      ok: true,
      message: { type: "terminal", status: "succeeded", detail: null },
    });
    expect(parseHarnessLine('{"type":"log","message":"hi"}')).toEqual({
      ok: true,
      message: { type: "log", level: "info", message: "hi" },
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
    ['{"type":"request"}', "request.requestId must be a non-empty string"],
    ['{"type":"terminal"}', "terminal.status must be a string"],
    ['{"type":"log"}', "log.message must be a string"],
    ['{"type":"diagnostic"}', "diagnostic.diagnostic must be an object"],
    ['{"type":"hello"}', 'unknown harness message type "hello"'],
    ["{}", "unknown harness message type null"],
  ])("calls %s a violation", (line, violation) => {
    expect(parseHarnessLine(line)).toEqual({ ok: false, violation });
  });
});
