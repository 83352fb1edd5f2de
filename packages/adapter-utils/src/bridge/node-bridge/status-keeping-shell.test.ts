import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { STATUS_KEEPING_SHELL, statusKeepingShellArgs } from "./status-keeping-shell.js";

/** Runs the shell in a process group of its own, as the bridge does: `kill 0` inside reaches no test process. */
function run(
  executable: string,
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(STATUS_KEEPING_SHELL, statusKeepingShellArgs(executable, args), {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("statusKeepingShellArgs", () => {
  it("passes the program its arguments untouched and ends with its exit status", async () => {
    const result = await run("/bin/sh", [
      "-c",
      'printf "%s|" "$@"; exit 201',
      "zero",
      "-x",
      "a b",
      "$HOME",
      "",
    ]);
    expect(result.stdout).toBe("-x|a b|$HOME||");
    expect(result.status).toBe(201);
  });

  it("turns a death by a signal Node cannot name into the shell's 128+N", async () => {
    // The shell is the child Node sees: it exits, so Node reports its status, never 0.
    for (const n of [32, 34, 40, 64])
      expect((await run("/bin/sh", ["-c", `kill -${n} $$`])).status).toBe(128 + n);
  });

  it("outlives a forwarded signal sent to the whole group, and reports the program's end", async () => {
    // The program signals its own process group, the shell in it: the program dies, the shell reports it.
    expect((await run("/bin/sh", ["-c", "kill -TERM 0; exit 3"])).status).toBe(143);
    expect((await run("/bin/sh", ["-c", "trap 'exit 9' USR1; kill -USR1 0; exit 3"])).status).toBe(9);
  });

  it("keeps the shell's statuses, and its message, for a program that cannot start", async () => {
    const missing = await run("/nonexistent/program", []);
    expect(missing.status).toBe(127);
    expect(missing.stderr).toMatch(/: \/nonexistent\/program: not found\n$/);
    // A file without execute permission.
    expect((await run("/etc/passwd", [])).status).toBe(126);
  });

  it("writes none of its own messages to the program's stderr when a signal kills it", async () => {
    // dash prints "Terminated", "Killed", "Real-time signal 6" for these.
    for (const n of [15, 9, 40]) {
      const result = await run("/bin/sh", ["-c", `echo own >&2; kill -${n} $$`]);
      expect(result, `signal ${n}`).toEqual({ status: 128 + n, stdout: "", stderr: "own\n" });
    }
  });

  it("passes the program no descriptor of its own (the real stderr it keeps on 3)", async () => {
    // `test` is the program's shell's builtin here: it looks at that shell's own descriptors.
    const result = await run("/bin/sh", [
      "-c",
      "if test -e /proc/$$/fd/3; then echo open; else echo closed; fi",
    ]);
    expect(result).toEqual({ status: 0, stdout: "closed\n", stderr: "" });
  });
});
