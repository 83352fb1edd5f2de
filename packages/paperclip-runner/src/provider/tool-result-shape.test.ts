import { describe, expect, it } from "vitest";
import { resultShapeError } from "./tool-result-shape.js";

const base = { callId: "c", operationId: "op", result: {} };

describe("resultShapeError", () => {
  it("takes a result of any JSON and no isError", () => {
    expect(resultShapeError(base)).toBeNull();
    expect(resultShapeError({ ...base, result: null, isError: true, input: 5 })).toBeNull();
  });

  it("reports a wrong type in key order before what is missing", () => {
    expect(resultShapeError({ isError: "yes" })).toBe('invalid type: string "yes", expected a boolean');
    expect(resultShapeError({ ...base, isError: null })).toBe("invalid type: null, expected a boolean");
    expect(resultShapeError({ ...base, operationId: 5, isError: 1 })).toBe(
      "invalid type: integer `1`, expected a boolean",
    );
    expect(resultShapeError({ ...base, callId: 5, isError: 1 })).toBe(
      "invalid type: integer `5`, expected a string",
    );
  });

  it("reports the first missing of callId, operationId, result", () => {
    expect(resultShapeError({ result: {} })).toBe("missing field `callId`");
    expect(resultShapeError({ callId: "c", result: {} })).toBe("missing field `operationId`");
    expect(resultShapeError({ callId: "c", operationId: "op" })).toBe("missing field `result`");
  });
});
