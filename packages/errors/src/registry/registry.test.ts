import { describe, expect, it } from "vitest";
import { errorRegistry, findErrorEntry, isErrorCode } from "./registry.js";

const AREA_OF_FAMILY = {
  errors: "ERRORS",
  sandbox: "SANDBOX",
  createos: "CREATEOS",
  runner: "RUNNER",
} as const;

describe("the error registry", () => {
  it("documents the three seed codes with their verbatim messages", () => {
    expect(findErrorEntry("ERR_SANDBOX_PROXY_SOCKET_DIR")?.message).toBe(
      "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    );
    expect(findErrorEntry("ERR_CREATEOS_OUTPUT_CONNECTION")?.message).toBe(
      "CreateOS process output connection failed.",
    );
    expect(findErrorEntry("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS")?.message).toBe(
      "runner diagnostics directory is accessible by group or other users",
    );
  });

  it.each(errorRegistry.map((entry) => [entry.code, entry] as const))(
    "%s is a complete entry",
    (code, entry) => {
      expect(code).toMatch(/^ERR_[A-Z0-9]+(?:_[A-Z0-9]+)+$/);
      expect(code.startsWith(`ERR_${AREA_OF_FAMILY[entry.family]}_`)).toBe(true);
      for (const field of [entry.title, entry.message, entry.meaning, entry.when, entry.prevention]) {
        expect(field.trim().length).toBeGreaterThan(0);
      }
      expect(entry.meaning.length).toBeGreaterThan(40);
      expect(entry.when.length).toBeGreaterThan(40);
      expect(entry.solutions.length).toBeGreaterThanOrEqual(1);
      for (const solution of entry.solutions) expect(solution.trim().length).toBeGreaterThan(10);
    },
  );

  it("is sorted and has no duplicate codes", () => {
    const codes = errorRegistry.map((entry) => entry.code);
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("answers code lookups", () => {
    expect(isErrorCode("ERR_SANDBOX_PROXY_SOCKET_DIR")).toBe(true);
    expect(isErrorCode("ERR_NOPE")).toBe(false);
    expect(isErrorCode(42)).toBe(false);
    expect(findErrorEntry("ERR_NOPE")).toBeUndefined();
  });
});
