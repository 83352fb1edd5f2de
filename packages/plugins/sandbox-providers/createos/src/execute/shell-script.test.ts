import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { buildScript, shellQuote, validateCommand } from "./shell-script.js";

function failure(run: () => void): { code: unknown; message: string } {
  const { code, message } = caughtSync(run);
  return { code, message };
}

describe("shellQuote", () => {
  it("single-quotes and escapes quotes the upstream way", () => {
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'"'"'s'`);
    expect(shellQuote("")).toBe("''");
  });
});

describe("validateCommand", () => {
  it("requires a command", () => {
    expect(failure(() => validateCommand({ command: "" }))).toEqual({
      code: "ERR_CREATEOS_COMMAND_REQUIRED",
      message: "A sandbox command is required.",
    });
    expect(failure(() => validateCommand({ command: "   " })).code).toBe("ERR_CREATEOS_COMMAND_REQUIRED");
  });
  it("checks env keys", () => {
    for (const key of ["1A", "A-B", "", "A B", "A=B"]) {
      expect(failure(() => validateCommand({ command: "x", env: { [key]: "v" } }))).toEqual({
        code: "ERR_CREATEOS_INVALID_ENV",
        message: "Invalid sandbox environment variable.",
      });
    }
    expect(() => validateCommand({ command: "x", env: { _A1: "v" } })).not.toThrow();
  });
  it("rejects NUL in every value", () => {
    const cases = [
      { command: "a\0" },
      { command: "a", args: ["\0"] },
      { command: "a", cwd: "/\0" },
      { command: "a", env: { K: "\0" } },
      { command: "a", stdin: "x\0y" },
    ];
    for (const spec of cases) {
      expect(failure(() => validateCommand(spec))).toEqual({
        code: "ERR_CREATEOS_NUL_VALUE",
        message: "Sandbox command values cannot contain NUL.",
      });
    }
  });
});

describe("buildScript", () => {
  it("builds the wrapper", () => {
    expect(
      buildScript({ command: "echo", args: ["a b"], cwd: "/w", env: { K: "v'x" }, stdinPath: "/tmp/in" }),
    ).toBe(`cd -- '/w' || exit\nexec env -- K='v'"'"'x' 'echo' 'a b' < '/tmp/in'`);
    expect(buildScript({ command: "true" })).toBe("exec env -- 'true'");
  });
});
