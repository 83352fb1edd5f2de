import { describe, expect, it } from "vitest";
import { READY, startTurn, violationOf } from "./helpers/local-steps.js";
import { COMMAND_SCHEMA, fakeDaemon, goneWithin, terminalOf } from "./local-controller.js";

// 20 000 levels fit a 64 KiB line, and overflowed the stack of the first recursive walk over the
// message (JSON.stringify of the stream line, the command's fingerprint): the daemon died of an
// uncaught RangeError, no terminal written, its harness left to the watchdog.
const DEEP = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;

const LINES = {
  event: `{"type":"event","event":{"eventType":"item.delta","payload":{"x":${DEEP}}}}`,
  diagnostic: `{"type":"diagnostic","diagnostic":{"x":${DEEP}}}`,
  request: `{"type":"request","request":{"requestId":"r1","x":${DEEP}}}`,
};

describe("a harness line nested 20 000 levels deep", { timeout: 60_000 }, () => {
  for (const [kind, line] of Object.entries(LINES)) {
    it(`(${kind}) is a protocol violation that ends the run, not a crash of the daemon`, async () => {
      const controller = fakeDaemon({
        steps: [READY, { waitFor: "turn.start" }, { stdout: line }, { sleep: 60_000 }],
      });
      startTurn(controller);
      expect(await terminalOf(controller)).toBe("harness_protocol_violation");
      expect(violationOf(controller)).toBe("harness wrote JSON nested deeper than 127 levels");
      expect((await controller.exited).code).toBe(0);
      expect(controller.stderr).not.toContain("uncaught");
      const harnessPid = controller.event("harness.ready")?.payload.pid as number;
      await goneWithin(harnessPid);
    });
  }
});

describe("a controller line nested 20 000 levels deep", { timeout: 60_000 }, () => {
  it("gets a diagnostic, as a line that is not JSON does, and the daemon goes on", async () => {
    const controller = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
    controller.sendRaw(
      `{"schema":"${COMMAND_SCHEMA}","commandId":"deep","controllerSeq":1,"type":"run.prepare","payload":{"x":${DEEP}}}`,
    );
    controller.send("run.prepare", "c1", {}, 1);
    expect(await controller.waitForReceipt("c1")).toMatchObject({ status: "accepted" });
    expect(controller.diagnostics()).toContainEqual({
      level: "error",
      message: "invalid command JSON: the line nests deeper than 127 levels",
    });
    expect(controller.receiptFor("deep")).toEqual([]);
    controller.closeStdin();
    expect((await controller.exited).code).toBe(0);
  });
});
