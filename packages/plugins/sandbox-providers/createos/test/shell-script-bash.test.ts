import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildScript, type CommandSpec, shellQuote } from "../src/execute/shell-script.js";

/** Runs a wrapper script as CreateOS would: `/bin/bash -c <script>`, no login shell. */
function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const run = spawnSync("/bin/bash", ["-c", script], { cwd, env, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout };
}

/** The wrapper as it was before bash's own `exec` replaced `env` for commands without env. */
function envWrapper(spec: CommandSpec): string {
  const argv = [spec.command, ...(spec.args ?? [])].map(shellQuote).join(" ");
  const line = `exec env -- ${argv}${spec.stdinPath === undefined ? "" : ` < ${shellQuote(spec.stdinPath)}`}`;
  return spec.cwd === undefined ? line : `cd -- ${shellQuote(spec.cwd)} || exit\n${line}`;
}

describe("buildScript through a real bash", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "createos-wrapper-"));
    mkdirSync(join(dir, "bin"));
    mkdirSync(join(dir, "a-directory"));
    writeFileSync(join(dir, "bin", "argv-tool"), '#!/bin/sh\nprintf "%s|" "$0" "$@"; cat\n');
    chmodSync(join(dir, "bin", "argv-tool"), 0o755);
    writeFileSync(join(dir, "not-executable"), "#!/bin/sh\necho ran\n");
    writeFileSync(join(dir, "stdin.txt"), "from the staged file\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("passes hostile values through bash unchanged", () => {
    const args = ["$(touch /nonexistent)", "`id`", "a'b\"c", "; rm -rf /", "\n", "*", "-n", "é🙂"];
    for (const env of [undefined, { X: "$HOME'" }]) {
      const script = buildScript({ command: "printf", args: ["%s\\0", ...args], env });
      expect(runBash(script, dir).stdout.split("\0").slice(0, -1)).toEqual(args);
    }
    const env = runBash(buildScript({ command: "printenv", args: ["X"], env: { X: "$HOME'" } }), dir);
    expect(env.stdout).toBe("$HOME'\n");
  });

  it("fails instead of running elsewhere when cwd is missing", () => {
    const run = runBash(buildScript({ command: "pwd", cwd: "/nonexistent-dir-x" }), dir);
    expect(run).toEqual({ status: 1, stdout: "" });
  });

  it("sets names that are special or read-only to bash in the command's environment", () => {
    const run = runBash(
      buildScript({ command: "printenv", args: ["UID", "SHELLOPTS"], env: { UID: "7", SHELLOPTS: "x" } }),
      dir,
    );
    expect(run).toEqual({ status: 0, stdout: "7\nx\n" });
  });

  it("keeps the exit codes, PATH lookup, argv, cwd and stdin of the env wrapper", () => {
    const path = `${join(dir, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`;
    const env = { ...process.env, PATH: path };
    const cases: CommandSpec[] = [
      { command: "argv-tool", args: ["a b", "-c"], stdinPath: join(dir, "stdin.txt") },
      { command: "argv-tool", cwd: join(dir, "a-directory"), stdinPath: "stdin-missing" },
      { command: "pwd", cwd: join(dir, "a-directory") },
      { command: "no-such-command-x", args: ["a"] },
      { command: "-l" },
      { command: join(dir, "a-directory") },
      { command: join(dir, "not-executable") },
      { command: "./not-executable" },
      { command: "true", stdinPath: join(dir, "no-such-stdin") },
      { command: "sh", args: ["-c", "exit 42"] },
    ];
    const expected = [0, 1, 0, 127, 127, 126, 126, 126, 1, 42];
    cases.forEach((spec, index) => {
      const ours = runBash(buildScript(spec), dir, env);
      expect(ours, JSON.stringify(spec)).toEqual(runBash(envWrapper(spec), dir, env));
      expect(ours.status, JSON.stringify(spec)).toBe(expected[index]);
    });
  });
});
