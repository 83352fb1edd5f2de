import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { BoundedByteTail } from "@paperclipai/internal";
import { closeDrainedOutput } from "./close-drained-output.js";
import { LogDelivery, type LogStream } from "./log-delivery.js";
import { type SpawnPlan, STATUS_FD } from "./plan-spawn.js";
import type { RunChildProcessOptions, RunProcessResult } from "./run-child-process.js";
import { type RunResult, runOutcome } from "./run-outcome.js";
import { spawnFailure } from "./spawn-failure.js";

/** Output kept per stream: the last 4 MiB (bytes; upstream counts UTF-16 units). */
export const MAX_CAPTURE_BYTES = 4 * 1024 * 1024;
/** Default for `onLogStallMs`. */
export const DEFAULT_ON_LOG_STALL_MS = 30_000;

type Captured = Record<LogStream, BoundedByteTail>;
type ReportError = (error: unknown, message: string) => void;

/** Keeps the tail of each stream and hands it to `onLog`, pausing the stream while a call is pending. */
function captureOutput(child: ChildProcess | null, logs: LogDelivery): Captured {
  const captured = {
    stdout: new BoundedByteTail(MAX_CAPTURE_BYTES),
    stderr: new BoundedByteTail(MAX_CAPTURE_BYTES),
  };
  const pump = (stream: LogStream, readable: Readable | null) => {
    if (!readable) return;
    // A character split across two reads reaches onLog whole, never as U+FFFD.
    const decoder = new StringDecoder("utf8");
    readable.on("data", (chunk: Buffer) => {
      captured[stream].push(chunk);
      const text = decoder.write(chunk);
      if (!text) return;
      readable.pause();
      void logs.deliver(stream, text).then(() => {
        if (!readable.destroyed) readable.resume();
      });
    });
    // "close" alone when the stream was closed once drained (close-drained-output.ts).
    let flushed = false;
    const flush = () => {
      if (flushed) return;
      flushed = true;
      const rest = decoder.end();
      if (rest) void logs.deliver(stream, rest);
    };
    readable.on("end", flush);
    readable.on("close", flush);
  };
  pump("stdout", child?.stdout ?? null);
  pump("stderr", child?.stderr ?? null);
  return captured;
}

/** Reads bwrap's status stream, remembering the sandbox's pid 1 as soon as bwrap reports it. */
function followStatus(child: ChildProcess, plan: SpawnPlan): void {
  const status = plan.status;
  const stream = child.stdio[STATUS_FD] as Readable | null | undefined;
  if (!status || !stream) return;
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    status.push(chunk);
    if (status.status.childPid) plan.init.remember(status.status.childPid);
  });
  stream.on("error", () => {});
}

function signalGroup(pid: number | null | undefined, signal: NodeJS.Signals): boolean {
  if (!pid || pid <= 0) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The run's signals: those forwarded from this process, and the timeout's SIGTERM then
 * SIGKILL. The sandbox's own process group gets the polite signal, so the program (or
 * the bridge) can shut down cleanly; bwrap itself would just die and take the sandbox
 * with it. SIGKILL goes to both.
 */
function controlSignals(child: ChildProcess, plan: SpawnPlan, opts: RunChildProcessOptions) {
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const send = (signal: NodeJS.Signals) => {
    const sandboxed = signalGroup(plan.status?.status.childPid, signal);
    if (!sandboxed || signal === "SIGKILL") {
      if (!signalGroup(child.pid, signal)) child.kill(signal);
    }
  };
  const forwarders = (opts.forwardSignals ?? []).map((signal) => {
    const forward = () => send(signal);
    process.on(signal, forward);
    return () => process.off(signal, forward);
  });
  const timeout =
    opts.timeoutSec > 0
      ? setTimeout(() => {
          timedOut = true;
          send("SIGTERM");
          killTimer = setTimeout(() => send("SIGKILL"), Math.max(1, opts.graceSec) * 1000);
        }, opts.timeoutSec * 1000)
      : undefined;
  return {
    timedOut: () => timedOut,
    stop: () => {
      for (const remove of forwarders) remove();
      clearTimeout(timeout);
      clearTimeout(killTimer);
    },
  };
}

/** Calls `onSpawn` with the child's pid, then writes `stdin` (once the metadata is recorded). */
function announceAndFeed(
  child: ChildProcess,
  opts: RunChildProcessOptions,
  startedAt: string,
  report: ReportError,
): void {
  const recorded =
    typeof child.pid === "number" && child.pid > 0 && opts.onSpawn
      ? opts
          .onSpawn({ pid: child.pid, processGroupId: child.pid, startedAt })
          .catch((error: unknown) => report(error, "failed to record child process metadata"))
      : Promise.resolve();
  const stdin = child.stdin;
  // On the caller's stdio a stdin pipe is the relay's (relay-stdio.ts).
  if (opts.stdin == null || !stdin || opts.stdio === "inherit") return;
  stdin.on("error", () => {});
  void recorded.finally(() => {
    if (!stdin.destroyed) stdin.end(opts.stdin);
  });
}

export interface SuperviseInput {
  runId: string;
  command: string;
  opts: RunChildProcessOptions;
  plan: SpawnPlan;
  child: ChildProcess;
  /** `Date.now()` just before the spawn. */
  startedAt: number;
  /** Settles once relayed output (`stdio: "inherit"`, relay-stdio.ts) is written. */
  relayed?: Promise<void>;
}

/**
 * Follows a started run to its end: output, status, signals and timeout; kills the whole
 * sandbox as soon as bwrap exits (whatever the program did: a process that cleared its
 * parent-death signal, a daemon holding the output pipes open); settles once the output
 * is delivered and the sandbox cleaned up.
 */
export function superviseRun(input: SuperviseInput): Promise<RunProcessResult> {
  const { runId, command, opts, plan, child } = input;
  const onLogError =
    opts.onLogError ?? ((error, id, message) => console.warn({ err: error, runId: id }, message));
  const report: ReportError = (error, message) => onLogError(error, runId, message);
  const startedAt = new Date(input.startedAt).toISOString();
  const logs = new LogDelivery({
    onLog: opts.onLog,
    report,
    stallMs: opts.onLogStallMs ?? DEFAULT_ON_LOG_STALL_MS,
  });
  // On the caller's stdio nothing is captured: a relayed pipe is the relay's alone.
  const captured = captureOutput(opts.stdio === "inherit" ? null : child, logs);
  followStatus(child, plan);
  const signals = controlSignals(child, plan, opts);
  announceAndFeed(child, opts, startedAt, report);

  return new Promise<RunProcessResult>((resolve, reject) => {
    let settled = false;
    // Once: the output delivered and the sandbox cleaned up, whatever ended the run.
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      signals.stop();
      void Promise.all([logs.drained(), input.relayed])
        .then(() => plan.cleanup())
        .catch((error: unknown) => report(error, "failed to clean up the sandbox"))
        .finally(settle);
    };
    child.on("error", (error) => finish(() => reject(spawnFailure(command, opts.cwd, plan.env, error))));
    child.on("exit", () => {
      void plan.killSandbox().then(() => {
        // Nothing of the sandbox runs now: a pipe still open is held from outside the run.
        if (plan.bwrap === null) return;
        closeDrainedOutput(child.stdout);
        closeDrainedOutput(child.stderr);
      });
    });
    child.on("close", (code, signal) => {
      plan.status?.end();
      const outcome = runOutcome({
        bwrap: plan.status ? (plan.bwrap ?? plan.command) : null,
        status: plan.status?.status ?? null,
        timedOut: signals.timedOut(),
        code,
        signal,
        stdout: captured.stdout.text(),
        stderr: captured.stderr.text(),
        courierToken: plan.courierToken,
      });
      finish(() =>
        "error" in outcome ? reject(outcome.error) : resolve(timed(outcome.result, child, input.startedAt)),
      );
    });
  });
}

/** The program's result with the run's pid and times. */
function timed(result: RunResult, child: ChildProcess, startedAt: number): RunProcessResult {
  const finished = Date.now();
  return {
    ...result,
    pid: child.pid ?? null,
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(finished).toISOString(),
    durationMs: finished - startedAt,
  };
}
