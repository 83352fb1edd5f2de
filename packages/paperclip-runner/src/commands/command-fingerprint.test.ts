import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { commandFingerprint, wireCommandFingerprint } from "./command-fingerprint.js";

const sent = {
  schema: "paperclip.prp.command.v1",
  commandId: "suspend",
  controllerSeq: 4,
  type: "runner.suspend",
  issuedAt: "2026-01-01T00:00:00.000Z",
  payload: {},
};

describe("wireCommandFingerprint", () => {
  it("hashes the command as upstream's runner serializes it: its fields, sorted, the nullable ones null", () => {
    // What the Paperclip server recomputes (`completedMaintenanceTerminalReceipt`), written out.
    const canonical =
      '{"commandId":"suspend","controllerSeq":4,"deadlineAt":null,"issuedAt":"2026-01-01T00:00:00.000Z",' +
      '"payload":{},"precondition":null,"schema":"paperclip.prp.command.v1","type":"runner.suspend"}';
    const digest = createHash("sha256").update(canonical).digest("hex");
    expect(wireCommandFingerprint(sent)).toBe(digest);
    expect(wireCommandFingerprint({ ...sent, deadlineAt: null, precondition: null })).toBe(digest);
    // The server sends neither nullable field: the command as received hashes otherwise.
    expect(commandFingerprint(sent)).not.toBe(digest);
  });

  it("drops what upstream's Command does not carry, and tells its own fields apart", () => {
    const digest = wireCommandFingerprint(sent);
    expect(wireCommandFingerprint({ ...sent, extra: 1 })).toBe(digest);
    expect(wireCommandFingerprint({ ...sent, deadlineAt: "2026-01-02T00:00:00.000Z" })).not.toBe(digest);
    expect(wireCommandFingerprint({ ...sent, precondition: {} })).not.toBe(digest);
    expect(wireCommandFingerprint({ ...sent, payload: { reason: "r" } })).not.toBe(digest);
    const { issuedAt: _issuedAt, ...undated } = sent;
    expect(wireCommandFingerprint(undated)).toBe(wireCommandFingerprint({ ...sent, issuedAt: null }));
  });
});
