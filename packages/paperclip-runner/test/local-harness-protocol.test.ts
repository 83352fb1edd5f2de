import { describe, expect, it } from "vitest";
import { logsOf, READY, RESULT, startTurn, violationOf } from "./helpers/local-steps.js";
import { fakeDaemon, terminalOf } from "./local-controller.js";

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("local mode: what the harness may and may not write", { timeout: 60_000 }, () => {
  it("ends with harness_protocol_violation on a line that breaks the harness protocol", async () => {
    const cases = [
      [{ stdout: "this is not json" }, "harness wrote a line that is not JSON"],
      [{ oversizedStdout: 70_000 }, "harness stdout line of 70000 bytes exceeds the 65536-byte frame"],
      [
        { result: { text: "done" } },
        "harness result is not a structured run result: result.schema must be paperclip.run_result.v1",
      ],
      [
        { event: { eventType: "run.terminal" } },
        "harness event type run.terminal is emitted by the runner only",
      ],
      [{ event: { eventType: "thinking" } }, 'harness event type "thinking" is not a PRP event type'],
    ] as const;
    const controllers = cases.map(([step]) =>
      fakeDaemon({ steps: [READY, { waitFor: "turn.start" }, step, { sleep: 60_000 }] }),
    );
    const early = fakeDaemon({ steps: [{ event: { eventType: "item.delta" } }, READY, { sleep: 60_000 }] });
    for (const controller of controllers) startTurn(controller);
    early.send("run.prepare", "c1");
    for (const [index, controller] of controllers.entries()) {
      expect(await terminalOf(controller)).toBe("harness_protocol_violation");
      expect(violationOf(controller)).toBe(cases[index]?.[1]);
    }
    expect(await terminalOf(early)).toBe("harness_protocol_violation");
    expect(violationOf(early)).toBe("harness sent event before ready");
    expect(early.event("run.terminal")?.payload.reconciliation).toMatchObject({
      detail: expect.stringContaining("harness sent event before ready"),
    });
  });

  it("ignores a second ready with a diagnostic, and reports a typed event it does not validate instead of forwarding it", async () => {
    const controller = fakeDaemon({
      steps: [
        READY,
        READY,
        { waitFor: "turn.start" },
        { event: { eventType: "plan.updated", payload: {} } },
        RESULT,
        { exit: 0 },
      ],
    });
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(controller.diagnostics()).toEqual([
      { level: "warning", message: "duplicate harness ready message ignored" },
    ]);
    expect(controller.event("harness.diagnostic")?.payload).toMatchObject({
      code: "harness_event_not_forwarded",
      eventType: "plan.updated",
    });
    expect(controller.event("plan.updated")).toBeUndefined();
  });

  it("takes a harness stdout line of exactly the frame size as a frame, not a violation", async () => {
    const head = '{"type":"event","event":{"eventType":"item.delta","payload":{"text":"';
    const tail = '"}}}';
    const line = `${head}${"f".repeat(64 * 1024 - head.length - tail.length)}${tail}`;
    expect(Buffer.byteLength(line)).toBe(65_536);
    const controller = fakeDaemon({
      steps: [READY, { waitFor: "turn.start" }, { stdout: line }, RESULT, { exit: 0 }],
    });
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(String(controller.event("item.delta")?.payload.text)).toHaveLength(
      65_536 - head.length - tail.length,
    );
  });

  it("turns an oversized stderr line into a marker in the log tail and keeps the run going", async () => {
    const controller = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        { oversizedStderr: 100_000 },
        { stderr: "after" },
        RESULT,
        { exit: 0 },
      ],
    });
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(logsOf(controller)).toMatchObject({
      lines: [
        "stderr: [a line of 100000 bytes exceeded the 65536-byte frame and was dropped]",
        "stderr: after",
      ],
      droppedLines: 0,
    });
  });

  it("bounds the log tail by --log-max-lines and --log-max-bytes", async () => {
    const steps = [
      READY,
      ...Array.from({ length: 10 }, (_, index) => ({ log: `line ${index}` })),
      { exit: 0 },
    ];
    const controller = fakeDaemon({ steps }, undefined, ["--log-max-lines", "3", "--log-max-bytes", "256"]);
    controller.send("run.prepare", "c1");
    await terminalOf(controller);
    expect(logsOf(controller)).toEqual({
      lines: ["stdout: line 7", "stdout: line 8", "stdout: line 9"],
      retainedBytes: 42,
      droppedLines: 7,
    });
  });
});
