import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import {
  objectField,
  optionalIntegerField,
  optionalStringField,
  parseEnvelope,
  resourceId,
} from "./envelope.js";

function codeOf(run: () => unknown): { code: unknown; message: string } {
  const { code, message } = caughtSync(run);
  return { code, message };
}

describe("parseEnvelope", () => {
  it("returns data of a success envelope", () => {
    expect(parseEnvelope('{"status":"success","data":{"id":"a"}}')).toEqual({ id: "a" });
    expect(parseEnvelope('{"status":"success"}')).toEqual({});
  });
  it("rejects invalid JSON", () => {
    expect(codeOf(() => parseEnvelope("{"))).toEqual({
      code: "ERR_CREATEOS_INVALID_JSON",
      message: "CreateOS returned invalid JSON.",
    });
  });
  it("rejects an unsuccessful envelope", () => {
    for (const text of ['{"status":"error","data":{}}', "[]", "null", '"success"']) {
      expect(codeOf(() => parseEnvelope(text))).toEqual({
        code: "ERR_CREATEOS_UNSUCCESSFUL_RESPONSE",
        message: "CreateOS returned an unsuccessful response.",
      });
    }
  });
  it("rejects data that is not an object", () => {
    expect(codeOf(() => parseEnvelope('{"status":"success","data":[1]}'))).toEqual({
      code: "ERR_CREATEOS_INVALID_RESPONSE",
      message: "CreateOS returned an invalid response.",
    });
  });
});

describe("field readers", () => {
  it("read typed fields and reject wrong types", () => {
    expect(objectField({ a: { b: 1 } }, "a")).toEqual({ b: 1 });
    expect(optionalIntegerField({ a: 3 }, "a")).toBe(3);
    expect(optionalIntegerField({}, "a")).toBeNull();
    expect(optionalStringField({ a: "x" }, "a")).toBe("x");
    expect(codeOf(() => objectField({ a: 1 }, "a")).code).toBe("ERR_CREATEOS_INVALID_RESPONSE");
    expect(codeOf(() => optionalIntegerField({ a: 1.5 }, "a")).code).toBe("ERR_CREATEOS_INVALID_RESPONSE");
    expect(codeOf(() => optionalStringField({ a: 1 }, "a")).code).toBe("ERR_CREATEOS_INVALID_RESPONSE");
  });
});

describe("resourceId", () => {
  it("accepts ids of 1 to 200 safe characters", () => {
    expect(resourceId("sbx_1-A")).toBe("sbx_1-A");
    expect(resourceId("a".repeat(200))).toBe("a".repeat(200));
  });
  it.each(["", "a".repeat(201), "../x", "a/b", "a b", "a%2F", 7, null])("rejects %s", (value) => {
    expect(codeOf(() => resourceId(value))).toEqual({
      code: "ERR_CREATEOS_INVALID_RESOURCE_ID",
      message: "CreateOS returned an invalid resource ID.",
    });
  });
});
