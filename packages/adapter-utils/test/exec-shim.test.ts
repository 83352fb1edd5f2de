import { spawn } from "node:child_process";
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { EXEC_SHIM_FILE_NAME, EXEC_SHIM_USAGE_LINE } from "../src/bridge/native-bridge-path.js";
import { assemble, type BpfStep, encode } from "../src/seccomp/bpf-program.js";
import { ENOSYS, EPERM, SECCOMP_RET_ALLOW, sandboxFilterBytes } from "../src/seccomp/sandbox-filter.js";
import { cleanupAll, type ExecResult, exec, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/** The variable the shim takes its filter from (native/exec-shim/exec-shim.c). */
const SECCOMP_ENV = "PAPERCLIP_SANDBOX_SECCOMP";
/** The variable the shim takes the binds to check from (native/exec-shim/bind-check.h). */
const BINDS_ENV = "PAPERCLIP_SANDBOX_BINDS";
const SECCOMP_RET_ERRNO = 0x00050000;
const ENOENT = 2;
const SHIPPED_ARCHES = ["x64", "arm64"] as const;

function shipped(arch: (typeof SHIPPED_ARCHES)[number]): string {
  return path.join(packageDir, "dist", "native", `linux-${arch}`, EXEC_SHIM_FILE_NAME);
}

/** qemu-user from Debian (`qemu-user-static` or `qemu-user`), which `bash scripts/provision.sh` installs. */
function qemuAarch64(): string {
  for (const name of ["qemu-aarch64-static", "qemu-aarch64"]) {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
      try {
        accessSync(path.join(dir, name), constants.X_OK);
        return path.join(dir, name);
      } catch {}
    }
  }
  throw new Error(
    "no qemu-aarch64 on PATH: run `bash scripts/provision.sh` (apt-get install qemu-user-static)",
  );
}

/** The shim of `arch` as a command line: this machine's natively, the other one under qemu-user. */
function shimCommand(arch: (typeof SHIPPED_ARCHES)[number]): string[] {
  return arch === process.arch ? [shipped(arch)] : [qemuAarch64(), shipped(arch)];
}

/** Runs `argv` with /dev/null inherited at descriptors 5 and 9, without close-on-exec, as libuv leaves a host's. */
function runInheriting(argv: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<ExecResult> {
  const devNull = openSync("/dev/null", "r");
  try {
    const stdio = [
      "ignore",
      "pipe",
      "pipe",
      "ignore",
      "ignore",
      devNull,
      "ignore",
      "ignore",
      "ignore",
      devNull,
    ];
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd, stdio: stdio as never });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    return new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
  } finally {
    closeSync(devNull);
  }
}

/** Which of descriptors 5 and 9 the shell sees open (`<&fd` duplicates without opening anything). */
const INHERITED_REPORT =
  'for fd in 5 9; do if { true <&$fd; } 2>/dev/null; then echo "$fd open"; else echo "$fd closed"; fi; done';

/** A filter that makes close_range unavailable (ENOSYS), and opening a directory too (ENOENT) when asked. */
function withoutCloseRange(alsoWithoutListing: boolean): string {
  const numbers = {
    x64: { closeRange: 436, openat: 257, directory: 0o200000 },
    arm64: { closeRange: 436, openat: 56, directory: 0o40000 },
  }[process.arch as "x64" | "arm64"];
  const listing: BpfStep[] = [
    { op: "jeq", value: numbers.openat, whenTrue: null, whenFalse: "allow" },
    // struct seccomp_data: nr, arch, ip, then the arguments; openat's flags are the third.
    { op: "load", offset: 32 },
    { op: "jset", value: numbers.directory, whenTrue: "missing", whenFalse: "allow" },
  ];
  const program = assemble([
    { op: "load", offset: 0 },
    { op: "jeq", value: numbers.closeRange, whenTrue: "unavailable", whenFalse: null },
    ...(alsoWithoutListing ? listing : []),
    { op: "label", name: "allow" },
    { op: "return", value: SECCOMP_RET_ALLOW },
    { op: "label", name: "unavailable" },
    { op: "return", value: SECCOMP_RET_ERRNO | ENOSYS },
    { op: "label", name: "missing" },
    { op: "return", value: SECCOMP_RET_ERRNO | ENOENT },
  ]);
  return encode(program).toString("hex");
}

/** One entry of the binds list (src/bwrap/bind-identities.ts): `major:minor:inode:destination`, hex. */
function bindEntry(major: bigint, minor: bigint, inode: bigint, dest: string): string {
  return `${[major, minor, inode].map((part) => part.toString(16)).join(":")}:${Buffer.from(dest).toString("hex")}`;
}

/** glibc's major, minor of `place`'s device, and its inode. */
function identity(place: string): readonly [bigint, bigint, bigint] {
  const { dev, ino } = statSync(place, { bigint: true });
  return [((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn), (dev & 0xffn) | ((dev >> 12n) & ~0xffn), ino];
}

/** A filter under which statx answers `errno`, as a container runtime's profile older than statx does. */
function withoutStatx(errno: number): string {
  const statx = { x64: 332, arm64: 291 }[process.arch as "x64" | "arm64"];
  return encode(
    assemble([
      { op: "load", offset: 0 },
      { op: "jeq", value: statx, whenTrue: "refused", whenFalse: null },
      { op: "return", value: SECCOMP_RET_ALLOW },
      { op: "label", name: "refused" },
      { op: "return", value: SECCOMP_RET_ERRNO | errno },
    ]),
  ).toString("hex");
}

describe("the exec shim, run directly on this machine", () => {
  const shim = shipped(process.arch as "x64" | "arm64");
  const hostPath = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

  it("loads the sandbox filter from the environment: a denied syscall then fails, and the program does not see the variable", async () => {
    const filter = sandboxFilterBytes()!.toString("hex");
    const script =
      'grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status; env | grep -c PAPERCLIP_SANDBOX; unshare -U true 2>/dev/null && echo unshared || echo refused';
    const filtered = await exec(shim, ["/bin/sh", "-c", script], {
      ...hostPath,
      [SECCOMP_ENV]: filter,
      OTHER: "kept",
    });
    expect(filtered).toEqual({ code: 0, stdout: "NoNewPrivs:\t1\nSeccomp:\t2\n0\nrefused\n", stderr: "" });
    // The same program without the variable: nothing loaded, the same syscall succeeds (as root).
    const unfiltered = await exec(shim, ["/bin/sh", "-c", script], hostPath);
    expect(unfiltered).toEqual({ code: 0, stdout: "NoNewPrivs:\t0\nSeccomp:\t0\n0\nunshared\n", stderr: "" });
  });

  it("loads its filter also over one that already holds the process, and still removes the variable", async () => {
    const allowAll = encode(assemble([{ op: "return", value: SECCOMP_RET_ALLOW }])).toString("hex");
    // The outer shim stands for a caller's runtime (an allow-all profile); the inner one must
    // still load the sandbox filter it is given (security.md, tenth pass), so unshare is refused.
    const filter = sandboxFilterBytes()!.toString("hex");
    const probe =
      'grep "^Seccomp_filters:" /proc/self/status; env | grep -c PAPERCLIP_SANDBOX; unshare -U true 2>/dev/null && echo unshared || echo refused';
    const inner = `${SECCOMP_ENV}=${filter} exec ${shellQuote(shim)} /bin/sh -c ${shellQuote(probe)}`;
    const run = await exec(shim, ["/bin/sh", "-c", inner], { ...hostPath, [SECCOMP_ENV]: allowAll });
    expect(run).toEqual({ code: 0, stdout: "Seccomp_filters:\t2\n0\nrefused\n", stderr: "" });
  });

  it("runs the program only when every listed bind shows the checked file and is a mount's root (else 122)", async () => {
    const entry = bindEntry;
    const [major, minor, inode] = identity("/");
    const run = (list: string) =>
      exec(shim, ["/bin/sh", "-c", "env | grep -c PAPERCLIP_SANDBOX"], { ...hostPath, [BINDS_ENV]: list });
    // `/` is a mount's root with that identity: the program runs, without the variable.
    expect(await run(entry(major, minor, inode, "/"))).toEqual({ code: 1, stdout: "0\n", stderr: "" });
    const refused = (dest: string) => ({
      code: 122,
      stdout: "",
      stderr: `paperclip-sandbox: ERR_SANDBOX_BIND_CHANGED: ${dest}\n`,
    });
    expect(await run(entry(major, minor, inode + 1n, "/"))).toEqual(refused("/"));
    // The right file, but no mount's root (a destination swapped back after bwrap mounted elsewhere).
    const place = scratchDir();
    const [placeMajor, placeMinor, placeInode] = identity(place);
    expect(await run(entry(placeMajor, placeMinor, placeInode, place))).toEqual(refused(place));
    expect(await run(`${entry(major, minor, inode, "/")},${entry(major, minor, inode, "/missing")}`)).toEqual(
      refused("/missing"),
    );
    for (const malformed of ["zz", "1:2:3", "1:2:3:", "1:2:3:2", "1:2:3:2f0"]) {
      expect(await run(malformed)).toEqual(refused(""));
    }
  });

  it.each([
    ["EPERM", EPERM],
    ["ENOSYS", ENOSYS],
  ])("judges the identity alone with fstatat where statx is refused (%s)", async (_, errno) => {
    // The outer shim loads the filter; the inner one checks the binds under it.
    const checked = (list: string) =>
      exec(shim, ["/bin/sh", "-c", `${BINDS_ENV}=${list} exec ${shellQuote(shim)} /bin/sh -c "echo ran"`], {
        ...hostPath,
        [SECCOMP_ENV]: withoutStatx(errno),
      });
    const [major, minor, inode] = identity("/");
    expect(await checked(bindEntry(major, minor, inode, "/"))).toEqual({
      code: 0,
      stdout: "ran\n",
      stderr: "",
    });
    // No mount's root, but fstatat cannot tell: the identity alone judges.
    const place = scratchDir();
    const [placeMajor, placeMinor, placeInode] = identity(place);
    expect(await checked(bindEntry(placeMajor, placeMinor, placeInode, place))).toMatchObject({ code: 0 });
    expect(await checked(bindEntry(major, minor, inode + 1n, "/"))).toEqual({
      code: 122,
      stdout: "",
      stderr: "paperclip-sandbox: ERR_SANDBOX_BIND_CHANGED: /\n",
    });
  });

  it("refuses a malformed filter with 125 before anything runs", async () => {
    for (const value of ["", "zz", "0600000001000500a", "0a00000000000000".toUpperCase()]) {
      const run = await exec(shim, ["/bin/sh", "-c", "echo ran"], { ...hostPath, [SECCOMP_ENV]: value });
      expect(run).toEqual({
        code: 125,
        stdout: "",
        stderr: "paperclip-sandbox: cannot load the seccomp filter: Invalid argument\n",
      });
    }
  });

  it("closes every inherited descriptor: with close_range, through /proc/self/fd, and by number", async () => {
    const unshimmed = await runInheriting(["/bin/sh", "-c", INHERITED_REPORT], hostPath);
    expect(unshimmed.stdout).toBe("5 open\n9 open\n");
    const fallbacks = [undefined, withoutCloseRange(false), withoutCloseRange(true)];
    for (const filter of fallbacks) {
      const env = filter ? { ...hostPath, [SECCOMP_ENV]: filter } : hostPath;
      const run = await runInheriting([shim, "/bin/sh", "-c", INHERITED_REPORT], env);
      expect(run).toEqual({ code: 0, stdout: "5 closed\n9 closed\n", stderr: "" });
    }
  });

  it("says how it is used without a program (125), and answers 127 and 126 as a shell does", async () => {
    expect(await exec(shim, [], hostPath)).toEqual({ code: 125, stdout: "", stderr: EXEC_SHIM_USAGE_LINE });
    expect(await exec(shim, ["/no/such/program"], hostPath)).toEqual({
      code: 127,
      stdout: "",
      stderr: "paperclip-sandbox: cannot start /no/such/program: No such file or directory\n",
    });
    const dir = scratchDir();
    const notExecutable = path.join(dir, "not-executable");
    writeFileSync(notExecutable, "#!/bin/sh\necho ran\n", { mode: 0o644 });
    expect(await exec(shim, [notExecutable], hostPath)).toEqual({
      code: 126,
      stdout: "",
      stderr: `paperclip-sandbox: cannot start ${notExecutable}: Permission denied\n`,
    });
  });

  it("searches PATH as execvp does: past missing and non-executable entries, the working directory for an empty one", async () => {
    const dir = scratchDir();
    const [denied, missing, found, cwd] = ["denied", "missing", "found", "cwd"].map((name) =>
      path.join(dir, name),
    );
    for (const made of [denied, found, cwd]) mkdirSync(made!);
    writeFileSync(path.join(denied!, "tool"), "#!/bin/sh\necho denied\n", { mode: 0o644 });
    writeFileSync(path.join(found!, "tool"), '#!/bin/sh\necho found "$@"\n', { mode: 0o755 });
    writeFileSync(path.join(cwd!, "tool"), "#!/bin/sh\necho cwd\n", { mode: 0o755 });
    const search = (entries: string) => ({ PATH: entries });
    expect(await exec(shim, ["tool", "a b"], search(`${denied}:${missing}:${found}`))).toEqual({
      code: 0,
      stdout: "found a b\n",
      stderr: "",
    });
    // Only a non-executable match: EACCES wins over the ENOENT of the other entries.
    expect(await exec(shim, ["tool"], search(`${missing}:${denied}:${missing}`))).toMatchObject({
      code: 126,
      stderr: "paperclip-sandbox: cannot start tool: Permission denied\n",
    });
    expect(await exec(shim, ["tool"], search(`${missing}:/nonexistent`))).toMatchObject({
      code: 127,
      stderr: "paperclip-sandbox: cannot start tool: No such file or directory\n",
    });
    expect(await runInheriting([shim, "tool"], search(`${missing}::${found}`), cwd)).toMatchObject({
      code: 0,
      stdout: "cwd\n",
    });
    // No PATH at all: glibc's default, /bin:/usr/bin.
    expect(await exec(shim, ["sh", "-c", "echo default"], {})).toEqual({
      code: 0,
      stdout: "default\n",
      stderr: "",
    });
  });

  it("hands a file the kernel cannot run to /bin/sh, as execvp does", async () => {
    const dir = scratchDir();
    const script = path.join(dir, "no-shebang");
    writeFileSync(script, 'echo "script $0 $1"\n');
    chmodSync(script, 0o755);
    expect(await exec(shim, [script, "arg"], { PATH: dir })).toEqual({
      code: 0,
      stdout: `script ${script} arg\n`,
      stderr: "",
    });
  });
});

describe("the exec shim of every shipped architecture", () => {
  it.each(SHIPPED_ARCHES)("linux-%s is freestanding: static, a PIE, nothing to relocate", async (arch) => {
    const headers = await exec("readelf", ["-W", "-l", "-r", shipped(arch)]);
    expect(headers.code, headers.stderr).toBe(0);
    expect(headers.stdout).toContain("Position-Independent Executable");
    expect(headers.stdout).not.toContain("INTERP");
    expect(headers.stdout).toContain("There are no relocations in this file.");
    expect(headers.stdout).toMatch(/GNU_STACK\s+(?:\S+\s+){5}RW\s/);
  });

  it.each(SHIPPED_ARCHES)(
    "linux-%s starts programs, searches PATH, closes descriptors and fails as designed",
    async (arch) => {
      const [command, ...prefix] = shimCommand(arch);
      const run = (args: string[], env: NodeJS.ProcessEnv) =>
        runInheriting([command!, ...prefix, ...args], env);
      const search = { PATH: "/nonexistent:/usr/bin:/bin" };
      expect(await run([], search)).toEqual({ code: 125, stdout: "", stderr: EXEC_SHIM_USAGE_LINE });
      expect(await run(["sh", "-c", INHERITED_REPORT], search)).toEqual({
        code: 0,
        stdout: "5 closed\n9 closed\n",
        stderr: "",
      });
      expect(await run(["no-such-program-pc"], search)).toMatchObject({ code: 127 });
      expect(await run(["/etc/passwd"], search)).toMatchObject({ code: 126 });
      expect(await run(["/bin/true"], { ...search, [SECCOMP_ENV]: "not hex" })).toMatchObject({ code: 125 });
    },
  );
});
