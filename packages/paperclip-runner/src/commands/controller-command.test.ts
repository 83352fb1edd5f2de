import { describe, expect, it } from "vitest";
import { parseControllerLine } from "./controller-command.js";

const base = { schema: "paperclip.prp.command.v1", commandId: "c1", controllerSeq: 1, type: "run.prepare" };

describe("parseControllerLine", () => {
  it("reads a command, defaulting the payload to an empty object", () => {
    expect(parseControllerLine(JSON.stringify(base))).toEqual({
      kind: "command",
      command: { ...base, payload: {} },
    });
  });

  it("reads an ack", () => {
    expect(parseControllerLine('{"schema":"paperclip.prp.ack.v1","throughSeq":4}')).toEqual({
      kind: "ack",
      ack: { schema: "paperclip.prp.ack.v1", throughSeq: 4 },
    });
  });

  it.each([
    ["{oops", "invalid command JSON: the line is not JSON"],
    ["[1]", "invalid command JSON: the line is not a JSON object"],
    [JSON.stringify({ ...base, schema: "paperclip.prp.command.v2" }), "unsupported command schema"],
    [
      JSON.stringify({ ...base, commandId: "" }),
      "invalid command: commandId must be a non-empty string of at most 256 characters",
    ],
    [JSON.stringify({ ...base, controllerSeq: 0 }), "invalid command: controllerSeq must be an integer >= 1"],
    [
      JSON.stringify({ ...base, controllerSeq: 1.5 }),
      "invalid command: controllerSeq must be an integer >= 1",
    ],
    [JSON.stringify({ ...base, type: 7 }), "invalid command: type must be a non-empty string"],
    [JSON.stringify({ ...base, payload: [] }), "invalid command: payload must be a JSON object"],
    ['{"schema":"paperclip.prp.ack.v1","throughSeq":-1}', "invalid ack: throughSeq must be an integer >= 0"],
  ])("rejects %s", (line, reason) => {
    expect(parseControllerLine(line)).toMatchObject({ kind: "invalid", reason });
  });

  it("keeps what it could read of an invalid command for the receipt", () => {
    expect(parseControllerLine(JSON.stringify({ ...base, schema: "x" }))).toEqual({
      kind: "invalid",
      reason: "unsupported command schema",
      commandId: "c1",
      controllerSeq: 1,
      type: "run.prepare",
    });
  });

  it("refuses a line nested deeper than 127 levels before parsing it, and takes 127", () => {
    const nested = (arrays: number): string =>
      `{"schema":"paperclip.prp.command.v1","commandId":"c1","controllerSeq":1,"type":"run.prepare","payload":{"x":${"[".repeat(arrays)}${"]".repeat(arrays)}}}`;
    expect(parseControllerLine(nested(125)).kind).toBe("command");
    expect(parseControllerLine(nested(126))).toMatchObject({
      kind: "invalid",
      reason: "invalid command JSON: the line nests deeper than 127 levels",
      commandId: null,
    });
  });
});
