import { describe, expect, it } from "vitest";
import { startTurn, violationOf } from "./helpers/local-steps.js";
import { Controller, IDS, terminalOf } from "./local-controller.js";

/** A harness that says ready, then opens `count` runtime requests of distinct ids, and waits. */
function requestingHarness(count: number): string[] {
  const script = [
    `echo '{"type":"ready"}'`,
    "read line; read line",
    "i=0",
    `while [ $i -lt ${count} ]; do echo "{\\"type\\":\\"request\\",\\"request\\":{\\"requestId\\":\\"r$i\\"}}"; i=$((i+1)); done`,
    "read line",
  ].join("\n");
  return [...IDS, "--harness-command", "/bin/sh", "--harness-arg", "-c", "--harness-arg", script];
}

describe("a harness that opens runtime requests without end", { timeout: 60_000 }, () => {
  it("is a protocol violation past 4096 open at once, the first 4096 forwarded", async () => {
    // Each request cost a pass over those already open: 40 000 kept the daemon busy for 20 s.
    const controller = new Controller(requestingHarness(4097));
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("harness_protocol_violation");
    expect(violationOf(controller)).toBe("harness holds more than 4096 runtime requests open");
    expect(controller.events().filter((event) => event.eventType === "runtime_request.created")).toHaveLength(
      4096,
    );
    expect((await controller.exited).code).toBe(0);
  });
});
