import { describe, expect, it } from "vitest";
import { parseUpstreamScript } from "./upstream-script.js";

const schema = "paperclip.fake_harness.script.v1";

describe("parseUpstreamScript", () => {
  it("reads every step kind of upstream's format", () => {
    const parsed = parseUpstreamScript({
      schema,
      name: "all",
      steps: [
        { kind: "delay", milliseconds: 5 },
        { kind: "log", stream: "stderr", text: "t" },
        { kind: "event", event_type: "item.started", item_id: "i", payload: { a: 1 } },
        { kind: "request", request: { requestId: "r" } },
        { kind: "await_resolution", request_id: "r" },
        { kind: "await_interrupt" },
        { kind: "result", payload: {} },
        { kind: "terminal", payload: {} },
        { kind: "spawn_worker" },
        { kind: "exit", code: 7 },
      ],
    });
    expect(parsed.ok && parsed.script.steps.map((step) => step.kind)).toEqual([
      "delay",
      "log",
      "event",
      "request",
      "await_resolution",
      "await_interrupt",
      "result",
      "terminal",
      "spawn_worker",
      "exit",
    ]);
    expect(parsed.ok && parsed.script.steps[2]).toEqual({
      kind: "event",
      eventType: "item.started",
      turnId: null,
      itemId: "i",
      payload: { a: 1 },
    });
  });

  it.each([
    [
      { schema: "paperclip.fake_harness.script.v2", name: "x", steps: [{ kind: "exit", code: 0 }] },
      "fake harness script schema is unsupported",
    ],
    [
      { schema, name: " ", steps: [{ kind: "exit", code: 0 }] },
      "fake harness script requires a name of at most 160 bytes and at least one step",
    ],
    [
      { schema, name: "x", steps: [] },
      "fake harness script requires a name of at most 160 bytes and at least one step",
    ],
    [
      { schema, name: "x".repeat(161), steps: [{ kind: "exit", code: 0 }] },
      "fake harness script requires a name of at most 160 bytes and at least one step",
    ],
    [
      { schema, name: "x", steps: Array(4097).fill({ kind: "spawn_worker" }) },
      "fake harness script cannot exceed 4096 steps",
    ],
    [
      { schema, name: "x", steps: [{ kind: "dance" }] },
      'fake harness script must be valid JSON: steps[0]: unknown variant "dance"',
    ],
  ])("refuses %#", (value, reason) => {
    expect(parseUpstreamScript(value)).toEqual({ ok: false, reason });
  });
});
