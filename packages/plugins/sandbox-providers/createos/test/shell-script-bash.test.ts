import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildScript, type CommandSpec, processCommand, shellQuote } from "../src/execute/shell-script.js";

/**
 * Runs a wrapper script as CreateOS would: `/bin/bash -c <script>`, no login shell. Stdin is
 * not a socket, or bash would take itself for a remote shell's and read the host's `~/.bashrc`.
 */
function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const run = spawnSync("/bin/bash", ["-c", script], {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Every variable bash's manual names (bash 5.2), and plain ones: each must reach the command
 * verbatim and silently, through assignments or through `env`.
 */
const BASH_VARIABLES = `_ BASH BASHOPTS BASHPID BASH_ALIASES BASH_ARGC BASH_ARGV BASH_ARGV0 BASH_CMDS
  BASH_COMMAND BASH_COMPAT BASH_ENV BASH_EXECUTION_STRING BASH_LINENO BASH_LOADABLES_PATH
  BASH_MONOSECONDS BASH_REMATCH BASH_SOURCE BASH_SUBSHELL BASH_TRAPSIG BASH_VERSINFO BASH_VERSION
  BASH_XTRACEFD CDPATH CHILD_MAX COLUMNS COMP_CWORD COMP_KEY COMP_LINE COMP_POINT COMP_TYPE
  COMP_WORDBREAKS COMP_WORDS COMPREPLY COPROC DIRSTACK EMACS ENV EPOCHREALTIME EPOCHSECONDS EUID
  EXECIGNORE FCEDIT FIGNORE FUNCNAME FUNCNEST GLOBIGNORE GLOBSORT GROUPS HISTCMD HISTCONTROL
  HISTFILE HISTFILESIZE HISTIGNORE HISTSIZE HISTTIMEFORMAT HOME HOSTFILE HOSTNAME HOSTTYPE IFS
  IGNOREEOF INPUTRC INSIDE_EMACS LANG LC_ALL LC_COLLATE LC_CTYPE LC_MESSAGES LC_NUMERIC LC_TIME
  LINENO LINES MACHTYPE MAIL MAILCHECK MAILPATH MAPFILE OLDPWD OPTARG OPTERR OPTIND OSTYPE PATH
  PIPESTATUS POSIXLY_CORRECT PPID PROMPT_COMMAND PROMPT_DIRTRIM PS0 PS1 PS2 PS3 PS4 PWD RANDOM
  READLINE_ARGUMENT READLINE_LINE READLINE_MARK READLINE_POINT REPLY SECONDS SHELL SHELLOPTS SHLVL
  SRANDOM TERM TIMEFORMAT TMOUT TMPDIR UID histchars API_TOKEN PAPERCLIP_RUN_ID a_b`.split(/\s+/);

/** The wrapper as it was before bash's own `exec` replaced `env`: every command through `env`. */
function envWrapper(spec: CommandSpec): string {
  const assignments = Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${shellQuote(value)} `);
  const argv = assignments.join("") + [spec.command, ...(spec.args ?? [])].map(shellQuote).join(" ");
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
    expect(run).toMatchObject({ status: 1, stdout: "" });
  });

  it("sets names that are special or read-only to bash in the command's environment", () => {
    const run = runBash(
      buildScript({ command: "printenv", args: ["UID", "SHELLOPTS"], env: { UID: "7", SHELLOPTS: "x" } }),
      dir,
    );
    expect(run).toMatchObject({ status: 0, stdout: "7\nx\n" });
  });

  it("hands every variable bash knows to the command verbatim, without a word on stderr", () => {
    const env = { PATH: `${join(dir, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}` };
    for (const name of BASH_VARIABLES) {
      // printenv's own PATH lookup would fail under PATH='v 1', so the tool is named by path.
      const spec = { command: "/usr/bin/printenv", args: [name], env: { [name]: "v 1'" } };
      expect(runBash(buildScript(spec), dir, env), name).toEqual({ status: 0, stdout: "v 1'\n", stderr: "" });
    }
  });

  it("says nothing on stderr when the staged stdin cannot be removed", () => {
    // A file no one may remove, root included (the tests run on Linux): the command still runs.
    const run = runBash(buildScript({ command: "head", args: ["-c", "5"], stdinPath: "/proc/version" }), dir);
    expect(run).toEqual({ status: 0, stdout: "Linux", stderr: "" });
  });

  it("keeps the exit codes, PATH lookup, argv, cwd and stdin of the env wrapper, with and without env", () => {
    const path = `${join(dir, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`;
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
    // The tools' directory on the PATH bash starts with, or in the command's own env.
    const ways = [
      { outer: { ...process.env, PATH: path }, env: undefined },
      { outer: { ...process.env, PATH: path }, env: { A_1: "x y" } },
      { outer: process.env, env: { PATH: path, A_1: "" } },
    ];
    for (const way of ways) {
      cases.forEach((base, index) => {
        const spec = { ...base, env: way.env };
        // The script removes the staged stdin once it has opened it: staged again for each run.
        writeFileSync(join(dir, "stdin.txt"), "from the staged file\n");
        const ours = runBash(buildScript(spec), dir, way.outer);
        writeFileSync(join(dir, "stdin.txt"), "from the staged file\n");
        const before = runBash(envWrapper(spec), dir, way.outer);
        expect({ status: ours.status, stdout: ours.stdout }, JSON.stringify(spec)).toEqual({
          status: before.status,
          stdout: before.stdout,
        });
        expect(ours.status, JSON.stringify(spec)).toBe(expected[index]);
      });
    }
  });
});

describe("processCommand through a real bash", () => {
  // What a started bash can tell about how it was started: its environment in order, every
  // variable and function it holds (those that change by the moment aside), argv, options, stdin.
  const VOLATILE =
    /^declare -[-a-zA-Z]* (BASHPID|RANDOM|SRANDOM|EPOCHREALTIME|EPOCHSECONDS|SECONDS|BASH_MONOSECONDS|BASH_COMMAND|LINENO)[=\s]/;
  const PROBE = `env; echo "$0|$#|$*|$-|$SHLVL|$PWD|\${OLDPWD-unset}|$_"; declare -p; declare -f; cat`;
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "createos-bare-bash-"));
    writeFileSync(join(dir, ".bash_profile"), 'echo "profile read"\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function start(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv) {
    const run = spawnSync(cmd, args, { cwd: dir, env, input: "from stdin\n", encoding: "utf8" });
    const stdout = run.stdout
      .split("\n")
      .filter((line) => !VOLATILE.test(line))
      .join("\n");
    return { status: run.status, stdout, stderr: run.stderr };
  }

  it("gives /bin/bash what the wrapper's exec would have", () => {
    const base = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, LANG: "C.UTF-8" };
    const outers: NodeJS.ProcessEnv[] = [
      base,
      { ...base, SHLVL: "4", PWD: "/nonexistent", OLDPWD: "/tmp", _: "/usr/bin/x" },
      { ...base, PWD: dir, OLDPWD: "/nonexistent-old", SHLVL: "not-a-number", A: "1", Z: "2" },
      { ...base, "BASH_FUNC_f%%": "() { echo f; }" },
    ];
    const argvs = [
      ["-c", PROBE, "name0", "a b", "c"],
      ["-c", `${PROBE}; f; exit 7`],
      ["-e", "-c", `${PROBE}; false; echo not reached`],
      ["-lc", PROBE],
      ["-s", "x", "y"],
      [],
    ];
    for (const outer of outers) {
      for (const args of argvs) {
        const spec = { command: "/bin/bash", args };
        const started = processCommand(spec);
        expect(started.args, JSON.stringify(args)).toEqual(args);
        const direct = start(started.cmd, started.args, outer);
        const wrapped = start("/bin/bash", ["-c", buildScript(spec)], outer);
        expect(direct, JSON.stringify({ outer, args })).toEqual(wrapped);
      }
    }
  });
});
