import { describe, expect, it } from "vitest";
import { PaperclipError } from "../paperclip-error.js";
import { caught, caughtSync } from "./caught-code.js";

const coded = () => new PaperclipError("ERR_ERRORS_CLI_USAGE", "bad input");

describe("caught", () => {
  it("returns the coded error a promise rejects with", async () => {
    const error = await caught(Promise.reject(coded()), "ERR_ERRORS_CLI_USAGE");
    expect(error.message).toBe("bad input");
  });

  it("fails when the promise resolves", async () => {
    await expect(caught(Promise.resolve(1))).rejects.toThrow("but the promise resolved");
  });

  it("fails on a plain Error, naming it", async () => {
    await expect(caught(Promise.reject(new Error("plain")))).rejects.toThrow(
      "expected a PaperclipError, got Error: plain",
    );
  });

  it("fails on another code, naming both", async () => {
    await expect(caught(Promise.reject(coded()), "ERR_ERRORS_UNKNOWN_CODE")).rejects.toThrow(
      "expected ERR_ERRORS_UNKNOWN_CODE, got ERR_ERRORS_CLI_USAGE",
    );
  });
});

describe("caughtSync", () => {
  it("returns the coded error a call throws", () => {
    expect(
      caughtSync(() => {
        throw coded();
      }).code,
    ).toBe("ERR_ERRORS_CLI_USAGE");
  });

  it("fails when the call returns", () => {
    expect(() => caughtSync(() => 1, "ERR_ERRORS_CLI_USAGE")).toThrow(
      "expected a throw of ERR_ERRORS_CLI_USAGE, but the call returned",
    );
  });
});
