import { describe, expect, it } from "vitest";
import { wireCommandFingerprint } from "../../commands/command-fingerprint.js";
import { readServerCommand } from "./server-command.js";

const sent = {
  schema: "paperclip.prp.command.v1",
  commandId: "suspend",
  controllerSeq: 4,
  type: "runner.suspend",
  issuedAt: "2026-01-01T00:00:00.000Z",
  payload: {},
};
const { issuedAt: _issuedAt, ...undated } = sent;

describe("readServerCommand", () => {
  it("reads a command with its issue time", () => {
    expect(readServerCommand(sent)).toEqual({ kind: "command", command: sent });
  });

  it("refuses a command without an issue time as it refuses a null one (the digest cannot tell them apart)", () => {
    // Both hash the same: were one applied and the other refused, a redelivery of the other
    // would replay the first one's result.
    expect(wireCommandFingerprint(undated)).toBe(wireCommandFingerprint({ ...sent, issuedAt: null }));
    const refused = {
      kind: "invalid",
      subject: { commandId: "suspend", controllerSeq: 4, type: "runner.suspend" },
      reason: "invalid command: issuedAt must be a string",
    };
    expect(readServerCommand(undated)).toEqual(refused);
    expect(readServerCommand({ ...sent, issuedAt: null })).toEqual(refused);
    expect(readServerCommand({ ...sent, issuedAt: 5 })).toEqual(refused);
  });
});
