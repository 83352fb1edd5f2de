import { describe, expect, it } from "vitest";
import { inputMatchesSchema } from "./tool-input-schema.js";

const reportProgress = {
  type: "object",
  properties: { body: { type: "string", minLength: 1 } },
  required: ["body"],
  additionalProperties: false,
};

describe("inputMatchesSchema", () => {
  it("accepts an input its schema describes", () => {
    expect(inputMatchesSchema(reportProgress, { body: "half way" })).toBe(true);
    expect(inputMatchesSchema({}, { anything: [1, 2] })).toBe(true);
  });

  it("refuses a missing required field, an unknown field and a wrong type", () => {
    expect(inputMatchesSchema(reportProgress, {})).toBe(false);
    expect(inputMatchesSchema(reportProgress, { body: "x", extra: true })).toBe(false);
    expect(inputMatchesSchema(reportProgress, { body: 7 })).toBe(false);
    expect(inputMatchesSchema(reportProgress, "body")).toBe(false);
  });

  it("follows local references and 2020-12 keywords", () => {
    const schema = {
      $defs: { id: { type: "string", pattern: "^[a-z]+-[0-9]+$" } },
      type: "object",
      properties: { ids: { type: "array", prefixItems: [{ $ref: "#/$defs/id" }], items: false } },
    };
    expect(inputMatchesSchema(schema, { ids: ["issue-1"] })).toBe(true);
    expect(inputMatchesSchema(schema, { ids: ["issue-1", "issue-2"] })).toBe(false);
    expect(inputMatchesSchema(schema, { ids: ["Issue 1"] })).toBe(false);
  });

  it("denies every input when the schema cannot be used (a reference to nowhere)", () => {
    const broken = { type: "object", properties: { body: { $ref: "#/$defs/missing" } } };
    expect(inputMatchesSchema(broken, { body: "x" })).toBe(false);
  });
});
