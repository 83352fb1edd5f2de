import { describe, expect, it } from "vitest";
import { READY } from "./helpers/local-steps.js";
import { fakeDaemon, terminalOf } from "./local-controller.js";

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("local mode: one answer per command line", { timeout: 60_000 }, () => {
  it("treats commandIds that name Object.prototype members as ordinary new commands", async () => {
    const controller = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
    controller.send("run.prepare", "constructor");
    controller.send("session.open", "__proto__");
    controller.send("run.cancel", "toString");
    expect(await terminalOf(controller)).toBe("run_cancelled");
    expect(controller.receipts().map((receipt) => [receipt.commandId, receipt.status])).toEqual([
      ["constructor", "accepted"],
      ["__proto__", "accepted"],
      ["toString", "accepted"],
    ]);
  });

  it("answers duplicate, reused, out-of-order, foreign-schema and unimplemented commands with one receipt each", async () => {
    const controller = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
    controller.send("run.prepare", "c1", { workspace: "w", options: { b: 1, a: 2 } });
    await controller.waitForReceipt("c1");
    // Same command, keys in another order: the canonical JSON is the same.
    controller.sendRaw(
      JSON.stringify({
        payload: { options: { a: 2, b: 1 }, workspace: "w" },
        type: "run.prepare",
        controllerSeq: 1,
        commandId: "c1",
        schema: "paperclip.prp.command.v1",
      }),
    );
    controller.send("run.prepare", "c1", { workspace: "other" }, 1);
    // The whole command is compared: another issuedAt is another command.
    controller.sendRaw(
      JSON.stringify({
        schema: "paperclip.prp.command.v1",
        commandId: "c1",
        controllerSeq: 1,
        type: "run.prepare",
        issuedAt: "2026-08-07T20:45:01.000Z",
        payload: { workspace: "w", options: { b: 1, a: 2 } },
      }),
    );
    controller.send("session.open", "c9", {}, 5);
    controller.sendRaw(
      JSON.stringify({ schema: "paperclip.prp.command.v0", commandId: "c2", controllerSeq: 2 }),
    );
    controller.send("turn.steer", "c2", {}, 2);
    controller.sendRaw("{not json");
    controller.sendRaw(
      JSON.stringify({ schema: "paperclip.prp.command.v1", payload: "x".repeat(1_100_000) }),
    );
    controller.send("run.cancel", "c3", {}, 3);
    expect(await terminalOf(controller)).toBe("run_cancelled");

    const c1 = controller.receiptFor("c1");
    expect(c1.map((receipt) => [receipt.status, receipt.detail])).toEqual([
      ["accepted", "command applied"],
      ["duplicate", "equivalent command already applied"],
      ["rejected", "commandId was reused with different data"],
      ["rejected", "commandId was reused with different data"],
    ]);
    expect(c1[1]?.original).toEqual({ status: "accepted", detail: "command applied" });
    expect(controller.receiptFor("c9")).toEqual([
      expect.objectContaining({
        status: "rejected",
        detail: "controllerSeq is not contiguous",
        expectedControllerSeq: 2,
      }),
    ]);
    expect(controller.receiptFor("c2").map((receipt) => receipt.detail)).toEqual([
      "unsupported command schema",
      "command turn.steer is not implemented in Local runner",
    ]);
    // Lines that name no command cannot get a receipt: they get a diagnostic.
    expect(controller.diagnostics()).toEqual([
      { level: "error", message: "invalid command JSON: the line is not JSON" },
      { level: "error", message: "controller command exceeded 65536 bytes (1100050 bytes skipped)" },
    ]);
    expect(controller.receipts()).toHaveLength(8);
  });

  it("still answers the commands that arrived with the one that ends the run", async () => {
    const controller = fakeDaemon({ steps: [READY] });
    const line = (commandId: string, controllerSeq: number, type: string) =>
      JSON.stringify({ schema: "paperclip.prp.command.v1", commandId, controllerSeq, type, payload: {} });
    // One write, so all four lines are in the daemon's hands when c2 ends the run.
    controller.sendRaw(
      [
        line("c1", 1, "run.prepare"),
        line("c2", 2, "run.cancel"),
        line("c1", 1, "run.prepare"),
        line("c3", 3, "turn.start"),
      ].join("\n"),
    );
    expect(await terminalOf(controller)).toBe("run_cancelled");
    expect(
      controller.receipts().map((receipt) => [receipt.commandId, receipt.status, receipt.detail]),
    ).toEqual([
      ["c1", "accepted", "command applied"],
      ["c2", "accepted", "command applied"],
      ["c1", "duplicate", "equivalent command already applied"],
      ["c3", "rejected", "run is stopping"],
    ]);
  });
});
