import { type ChildProcess, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { createRunCgroup, DEFAULT_MAX_PROCESSES, type RunCgroup } from "./run-cgroup.js";

/** The spare reads its run on this descriptor (native/exec-program.c, `--cgroup-spare`). */
export const SPARE_REQUEST_FD = 5;

/** A cgroup launcher started ahead of need, already inside the cgroup of the run it will become. */
export interface SpareLauncher {
  readonly child: ChildProcess;
  readonly cgroup: RunCgroup;
}

/** What the spare becomes: bwrap with its argv, environment and directory. */
export interface SpareRequest {
  /** Absolute path of the command. */
  readonly command: string;
  readonly args: readonly string[];
  /** Read as Node's `spawn` reads `options.env`: a value that is not a string is coerced, `undefined` skipped. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** `false`: the program's stdin is /dev/null (the spare's stdin pipe is closed). */
  readonly stdin: boolean;
  /** Keep fd 3 (bwrap's `--json-status-fd`). */
  readonly status: boolean;
  /** Keep fd 4 (bwrap's `--seccomp`). */
  readonly seccomp: boolean;
}

/** Node's own refusal (`spawn` throws it on the direct path), for a field the framing cannot carry. */
function nulByteError(name: string): Error {
  return Object.assign(new TypeError(`The argument '${name}' must be a string without null bytes`), {
    code: "ERR_INVALID_ARG_VALUE",
  });
}

/**
 * The request as the spare reads it: NUL-terminated fields `flags`, `cwd`, the argv's
 * length, the argv, then `KEY=value` entries (pure). A NUL inside a field would split it
 * and shift what follows: an argument `x\0LD_PRELOAD=…` became an env entry of bwrap,
 * which runs on the host. Such a request is refused as Node's `spawn` refuses it.
 */
export function encodeSpareRequest(request: SpareRequest): Buffer {
  const flags = `${request.stdin ? "" : "n"}${request.status ? "s" : ""}${request.seccomp ? "f" : ""}`;
  const argv = [request.command, ...request.args];
  if (request.cwd.includes("\0")) throw nulByteError("options.cwd");
  argv.forEach((arg, index) => {
    if (arg.includes("\0")) throw nulByteError(index === 0 ? "file" : `args[${index - 1}]`);
  });
  const env: string[] = [];
  // As Node's spawn reads `options.env`: every enumerable key (inherited ones too), an
  // `undefined` value skipped, any other coerced to a string (`3000` is "3000", `null` "null").
  for (const key in request.env) {
    const raw: unknown = request.env[key];
    if (raw === undefined) continue;
    const value = String(raw);
    if (key.includes("\0") || value.includes("\0"))
      throw nulByteError(`options.env['${key.replaceAll("\0", "\\0")}']`);
    env.push(`${key}=${value}`);
  }
  const fields = [flags, request.cwd, String(argv.length), ...argv, ...env];
  return Buffer.from(`${fields.join("\0")}\0`);
}

type Referenced = { ref?: () => void; unref?: () => void } | null | undefined;

/** Idle, a spare must not keep the host process alive; taken, it is a run like any other. */
function holdLoop(child: ChildProcess, held: boolean): void {
  for (const handle of [child, ...child.stdio] as Referenced[]) {
    if (held) handle?.ref?.();
    else handle?.unref?.();
  }
}

/** Per launcher binary, the spare started ahead of need (at most one). */
const spares = new Map<string, SpareLauncher>();

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/**
 * Starts the next spare for `launcher` in a fresh run cgroup, unless one waits already or
 * no cgroup can be made. It joins that cgroup at once, off any start path, and then waits
 * for its run; idle, it ends with the host (its request pipe closes). An empty cgroup a
 * spare leaves when the host dies is swept by the next process (`findPidsHierarchy`).
 */
export function refillSpareLauncher(launcher: string): void {
  if (spares.has(launcher)) return;
  const cgroup = createRunCgroup(DEFAULT_MAX_PROCESSES);
  if (!cgroup) return;
  let child: ChildProcess;
  try {
    child = spawn(launcher, ["--cgroup-spare", cgroup.procsFile], {
      cwd: "/",
      env: {},
      detached: true,
      stdio: ["pipe", "pipe", "pipe", "pipe", "pipe", "pipe"],
    });
  } catch {
    void cgroup.remove();
    return;
  }
  const spare = { child, cgroup };
  spares.set(launcher, spare);
  child.on("error", () => {});
  for (const stream of child.stdio) stream?.on("error", () => {});
  // A spare that dies idle (killed, or its host's pipe closed) gives its cgroup back.
  child.once("exit", () => {
    if (spares.get(launcher) === spare) spares.delete(launcher);
  });
  holdLoop(child, false);
}

/** The waiting spare of `launcher`, limited to `maxProcesses`, or `null` (none ready: spawn directly). */
export function takeSpareLauncher(launcher: string, maxProcesses: number): SpareLauncher | null {
  const spare = spares.get(launcher);
  spares.delete(launcher);
  if (!spare) return null;
  if (isRunning(spare.child) && spare.cgroup.limit(maxProcesses)) {
    holdLoop(spare.child, true);
    return spare;
  }
  spare.child.kill("SIGKILL");
  void spare.cgroup.remove();
  return null;
}

/** Turns a taken spare into the run: sends the request and closes the descriptors the run does not use. */
export function launchSpare(spare: SpareLauncher, request: SpareRequest): ChildProcess {
  const { child } = spare;
  const channel = (child.stdio as readonly unknown[])[SPARE_REQUEST_FD] as Writable & Readable;
  channel.end(encodeSpareRequest(request), () => channel.destroy());
  if (!request.stdin) child.stdin?.destroy();
  if (!request.status) (child.stdio[3] as Readable | null)?.destroy();
  if (!request.seccomp) (child.stdio[4] as Writable | null)?.destroy();
  return child;
}
