import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { buildScript, launchLine, processCommand, shellQuote, validateCommand } from "./shell-script.js";

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
  it("refuses a command with = only where env would read it as an assignment", () => {
    for (const name of ["LANG", "LC_ALL", "UID"]) {
      expect(failure(() => validateCommand({ command: "/opt/a=b", env: { [name]: "v" } })).code).toBe(
        "ERR_CREATEOS_COMMAND_ASSIGNMENT",
      );
    }
    expect(() => validateCommand({ command: "/opt/a=b", env: { PLAIN: "v" } })).not.toThrow();
    expect(() => validateCommand({ command: "/opt/a=b", args: ["x"] })).not.toThrow();
    expect(() => validateCommand({ command: "sh", args: ["a=b"], env: { LANG: "C" } })).not.toThrow();
  });
});

describe("buildScript", () => {
  it("builds the wrapper", () => {
    expect(
      buildScript({ command: "echo", args: ["a b"], cwd: "/w", env: { K: "v'x" }, stdinPath: "/tmp/in" }),
    ).toBe(
      `cd -- '/w' || exit\nexec < '/tmp/in' || exit\n/bin/rm -f -- '/tmp/in' 2>/dev/null\nK='v'"'"'x' exec -- 'echo' 'a b'`,
    );
    expect(buildScript({ command: "true" })).toBe("exec -- 'true'");
  });

  it("enters the cwd first, then opens stdin and removes its staged file before the launch", () => {
    expect(buildScript({ command: "cat", cwd: "/w x", stdinPath: "/tmp/in" })).toBe(
      "cd -- '/w x' || exit\nexec < '/tmp/in' || exit\n/bin/rm -f -- '/tmp/in' 2>/dev/null\nexec -- 'cat'",
    );
    // An empty cwd is no cwd: the process starts where the API starts it.
    expect(buildScript({ command: "pwd", cwd: "" })).toBe("exec -- 'pwd'");
  });
});

describe("launchLine", () => {
  it("lets bash exec the command itself when there is no per-command env", () => {
    expect(launchLine({ command: "ls", args: ["-l", "it's"] })).toBe(`exec -- 'ls' '-l' 'it'"'"'s'`);
    expect(launchLine({ command: "ls", env: {} })).toBe("exec -- 'ls'");
  });

  it("ends exec's options, so a command starting with - is still a command", () => {
    expect(launchLine({ command: "-l" })).toBe("exec -- '-l'");
  });

  it("sets per-command env as assignments before bash's exec", () => {
    expect(launchLine({ command: "printenv", args: ["A_1"], env: { A_1: "", PATH: "/x" } })).toBe(
      "A_1='' PATH='/x' exec -- 'printenv' 'A_1'",
    );
  });

  it("goes through env, every name set verbatim, when a name is special to bash", () => {
    for (const name of ["UID", "SHLVL", "_", "LANG", "LC_ALL", "BASH_ENV", "HISTFILE", "COMP_LINE"]) {
      expect(launchLine({ command: "printenv", env: { A: "1", [name]: "7" } })).toBe(
        `exec env -- A='1' ${name}='7' 'printenv'`,
      );
    }
  });
});

describe("processCommand", () => {
  it("starts /bin/bash as it is when the wrapper has nothing to do", () => {
    expect(processCommand({ command: "/bin/bash", args: ["-c", "printf x", "n0", "a b"] })).toEqual({
      cmd: "/bin/bash",
      args: ["-c", "printf x", "n0", "a b"],
    });
    expect(processCommand({ command: "/bin/bash" })).toEqual({ cmd: "/bin/bash", args: [] });
    expect(processCommand({ command: "/bin/bash", args: ["-lc", "id"], cwd: "", env: {} })).toEqual({
      cmd: "/bin/bash",
      args: ["-lc", "id"],
    });
  });

  it("keeps the wrapper for a cwd, an env, stdin, or any other command", () => {
    const specs = [
      { command: "/bin/bash", args: ["-c", "pwd"], cwd: "/w" },
      { command: "/bin/bash", args: ["-c", "env"], env: { A: "1" } },
      { command: "/bin/bash", args: ["-c", "cat"], stdinPath: "/tmp/in" },
      { command: "bash", args: ["-c", "true"] },
      { command: "/usr/bin/bash", args: ["-c", "true"] },
      { command: "/bin/sh", args: ["-c", "true"] },
      { command: "printf", args: ["x"] },
    ];
    for (const spec of specs) {
      expect(processCommand(spec), JSON.stringify(spec)).toEqual({
        cmd: "/bin/bash",
        args: ["-c", buildScript(spec)],
      });
    }
  });
});
