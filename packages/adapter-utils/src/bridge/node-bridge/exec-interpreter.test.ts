import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { execInterpreter, execInterpreters } from "./exec-interpreter.js";

describe("execInterpreter", () => {
  it("reads a script's interpreter as binfmt_script does: spaces and tabs before it, arguments after", async () => {
    const root = tempDirForTest("pc-exec-interp-unit-");
    const cases: [string, string | null][] = [
      ["#!/bin/sh\n", "/bin/sh"],
      ["#! \t/usr/bin/env node -x\n", "/usr/bin/env"],
      ["#!relative/interp", "relative/interp"],
      ["#!   \n", null],
      ["echo not a script\n", null],
      // Past the kernel's 256 bytes with no end in them, the name may be cut short: ENOEXEC.
      [`#!/${"x".repeat(300)}\n`, null],
      [`#!/${"x".repeat(252)}`, `/${"x".repeat(252)}`],
      [`#!/${"x".repeat(252)} ${"y".repeat(100)}\n`, `/${"x".repeat(252)}`],
    ];
    for (const [index, [text, expected]] of cases.entries()) {
      const file = path.join(root, String(index));
      await writeFile(file, text);
      expect(execInterpreter(file)?.path ?? null, JSON.stringify(text)).toBe(expected);
    }
  });

  it("reads a dynamic ELF's loader, and follows a script's interpreter when it is a script too", async () => {
    const root = tempDirForTest("pc-exec-interp-unit-");
    const binary = await readFile("/bin/true");
    const loader = execInterpreter("/bin/true");
    expect(loader).toEqual({ path: expect.stringMatching(/\/ld-[^/]+$/), script: false });
    expect(binary.includes(`${loader!.path}\0`)).toBe(true);
    const inner = path.join(root, "inner");
    await writeFile(inner, "#!/bin/sh\n");
    const outer = path.join(root, "outer");
    await writeFile(outer, `#!${inner}\n`);
    expect(execInterpreters(outer)).toEqual([inner, "/bin/sh", ...execInterpreters("/bin/sh")]);
    expect(execInterpreter(path.join(root, "missing"))).toBeNull();
    expect(execInterpreter("/proc/self/mem")).toBeNull();
    // A FIFO is not read (its open would wait for a writer): execve refuses it anyway.
    const fifo = path.join(root, "fifo");
    execFileSync("mkfifo", [fifo]);
    await writeFile(outer, `#!${fifo}\n`);
    expect(execInterpreters(outer)).toEqual([fifo]);
  });
});
