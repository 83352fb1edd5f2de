import { describe, expect, it } from "vitest";
import { emptyResult, wholeResult } from "./attempt-result.js";

describe("wholeResult", () => {
  it("hands bytes over as they are", () => {
    const bytes = Buffer.from("not json");
    expect(wholeResult("bytes", 200, bytes)).toEqual({ kind: "bytes", status: 200, bytes });
  });
  it("unwraps the JSON envelope, and takes a 204 (no body by definition) as empty data", () => {
    const envelope = Buffer.from(JSON.stringify({ status: "success", data: { id: "s1" } }));
    expect(wholeResult("json", 200, envelope)).toEqual({ kind: "json", status: 200, data: { id: "s1" } });
    expect(wholeResult("json", 204, Buffer.alloc(0))).toEqual({ kind: "json", status: 204, data: {} });
  });
  it("refuses a success without its envelope", () => {
    expect(() => wholeResult("json", 200, Buffer.alloc(0))).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_INVALID_JSON" }),
    );
  });
});

describe("emptyResult", () => {
  it("is the mode's kind with nothing in it", () => {
    expect(emptyResult("json", 404)).toEqual({ kind: "json", status: 404, data: null });
    expect(emptyResult("stream", 409)).toEqual({ kind: "stream", status: 409, body: null });
  });
});
