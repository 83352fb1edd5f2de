import { CreateosApiError, CreateosError, type JsonValue, PaperclipError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import { resourceId } from "../client/envelope.js";
import { DEFAULT_FOLLOW_TUNING, type FollowTuning, OutputFollower } from "./output-follower.js";
import type { ExitStatus, OutputStream } from "./output-frame.js";
import { killProcessTree, processPath } from "./process-api.js";
import { buildScript, validateCommand } from "./shell-script.js";
import { removeStagedStdin, stageStdin, stdinFilePath } from "./staged-stdin.js";
import { followWithStdinClosed } from "./stdin-close-alongside.js";
import { DEFAULT_TAIL_CHARS, TailBuffer } from "./tail-buffer.js";

export interface ExecuteRequest {
  readonly sandboxId: string;
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Staged as a file in the sandbox and redirected in; never sent through an input endpoint. */
  readonly stdin?: string | undefined;
  /** After this the tree is killed and the result says `timedOut: true`. */
  readonly timeoutMs?: number | undefined;
  /** Aborting kills the tree and throws `CreateOS command was cancelled.` */
  readonly signal?: AbortSignal | undefined;
  /** The host's live log (`ctx.execution.log`): every decoded chunk, once and in order. */
  readonly onLog?: ((stream: OutputStream, text: string) => void) | undefined;
}

export interface ExecuteTuning extends FollowTuning {
  /** Characters of each stream kept in the result (default 4 Mi). */
  readonly tailChars: number;
  /** Fresh deadline of the process kill (default 10 s). */
  readonly cleanupTimeoutMs: number;
}

export const DEFAULT_EXECUTE_TUNING: ExecuteTuning = {
  ...DEFAULT_FOLLOW_TUNING,
  tailChars: DEFAULT_TAIL_CHARS,
  cleanupTimeoutMs: 10_000,
};

/** Told when the process's fate is unknown, so the lease is not reused until destroyed. */
export interface LeaseGuard {
  block(reason: "process creation" | "process cleanup"): void;
}

export interface ExecuteResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  metadata: Record<string, JsonValue>;
}

const TIMED_OUT = Symbol("command timed out");

/**
 * Runs one command in a CreateOS sandbox and follows its output to the end (the seeded
 * algorithm, steps 1-8, with the reconnect, liveness and completeness fixes).
 */
export async function execute(
  client: CreateosClient,
  request: ExecuteRequest,
  tuning: Partial<ExecuteTuning> = {},
  guard?: LeaseGuard,
): Promise<ExecuteResult> {
  const settings: ExecuteTuning = { ...DEFAULT_EXECUTE_TUNING, ...tuning };
  // 1. Validate before anything is sent.
  validateCommand(request);
  const sandboxId = resourceId(request.sandboxId);
  const run = new AbortController();
  const onCancel = (): void => run.abort(request.signal?.reason);
  if (request.signal?.aborted) throw cancelled(request.signal.reason);
  request.signal?.addEventListener("abort", onCancel, { once: true });
  const deadline =
    request.timeoutMs !== undefined && request.timeoutMs > 0
      ? setTimeout(() => run.abort(TIMED_OUT), request.timeoutMs)
      : undefined;
  const tails: Record<OutputStream, TailBuffer> = {
    stdout: new TailBuffer(settings.tailChars),
    stderr: new TailBuffer(settings.tailChars),
  };
  const onLog = request.onLog;
  let processId: string | undefined;
  let follower: OutputFollower | undefined;
  const metadata = (extra: Record<string, JsonValue> = {}): Record<string, JsonValue> => ({
    processId: processId ?? null,
    outputTruncated: tails.stdout.truncated || tails.stderr.truncated,
    stdoutDroppedChars: tails.stdout.droppedChars,
    stdoutDroppedBytes: tails.stdout.droppedBytes,
    stderrDroppedChars: tails.stderr.droppedChars,
    stderrDroppedBytes: tails.stderr.droppedBytes,
    lastSeq: follower?.stats.cursor ?? 0,
    connections: follower?.stats.connections ?? 0,
    reconnects: follower?.stats.reconnects ?? 0,
    ...extra,
  });
  // Named before the upload starts: an upload that fails midway may still have left the file.
  const stdinPath = request.stdin === undefined ? undefined : stdinFilePath();
  try {
    // 2. Stage stdin as a file.
    if (stdinPath !== undefined) {
      await stageStdin(client, sandboxId, stdinPath, request.stdin ?? "", run.signal);
    }
    const script = buildScript({
      command: request.command,
      args: request.args,
      cwd: request.cwd,
      env: request.env,
      stdinPath,
    });
    // 3. Create the process: never retried, and an unconfirmed outcome blocks the lease.
    processId = await createProcess(client, sandboxId, script, run.signal, guard);
    // 4.-6. No interactive stdin; follow the output (both at once).
    follower = new OutputFollower(client, sandboxId, processId, settings, (stream, text) => {
      tails[stream].append(text);
      onLog?.(stream, text);
    });
    const exit: ExitStatus = await followWithStdinClosed(client, sandboxId, processId, follower, run.signal);
    // 8. Result.
    return {
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut: false,
      stdout: tails.stdout.toString(),
      stderr: tails.stderr.toString(),
      metadata: metadata(),
    };
  } catch (error) {
    // Nothing to kill by id; the guard already blocked the lease.
    if (PaperclipError.is(error, "ERR_CREATEOS_PROCESS_UNCONFIRMED")) throw error;
    const timedOut = run.signal.aborted && run.signal.reason === TIMED_OUT;
    const wasCancelled = run.signal.aborted && !timedOut;
    const primary = timedOut ? undefined : wasCancelled ? cancelled(request.signal?.reason) : error;
    // 7. Whatever happened after the process exists, its tree is killed.
    let cleanupError: CreateosError | undefined;
    if (processId !== undefined) {
      try {
        await killProcessTree(client, sandboxId, processId, settings.cleanupTimeoutMs);
      } catch (killError) {
        cleanupError = killError as CreateosError;
        guard?.block("process cleanup");
      }
    }
    // The host sees only a message: a process that may still run must be what it reads.
    if (cleanupError) throw unconfirmedTermination(primary, cleanupError, timedOut);
    if (timedOut) {
      return {
        exitCode: null,
        signal: null,
        timedOut: true,
        stdout: tails.stdout.toString(),
        stderr: tails.stderr.toString(),
        metadata: metadata(),
      };
    }
    throw primary;
  } finally {
    if (deadline !== undefined) clearTimeout(deadline);
    request.signal?.removeEventListener("abort", onCancel);
    if (stdinPath !== undefined)
      await removeStagedStdin(client, sandboxId, stdinPath, settings.cleanupTimeoutMs);
  }
}

async function createProcess(
  client: CreateosClient,
  sandboxId: string,
  script: string,
  signal: AbortSignal,
  guard: LeaseGuard | undefined,
): Promise<string> {
  signal.throwIfAborted();
  try {
    const reply = await client.json({
      method: "POST",
      path: processPath(sandboxId),
      json: { cmd: "/bin/bash", args: ["-c", script] },
      operation: "process creation",
      idempotent: false,
      signal,
    });
    return resourceId(reply.data?.process_id);
  } catch (error) {
    // A definite rejection (4xx) created nothing; anything else may have created a process we cannot name.
    if (error instanceof CreateosApiError && error.status >= 400 && error.status < 500) throw error;
    guard?.block("process creation");
    throw new CreateosError(
      "ERR_CREATEOS_PROCESS_UNCONFIRMED",
      "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
      { cause: error, details: { leaseBlocked: true } },
    );
  }
}

function cancelled(reason: unknown): CreateosError {
  return new CreateosError("ERR_CREATEOS_CANCELLED", "CreateOS command was cancelled.", {
    ...(reason === undefined ? {} : { cause: reason }),
  });
}

/**
 * A kill that failed: upstream's message (the host shows only the text, and must learn that a
 * process may still run), with the outcome that made the kill necessary kept as `cause` and in
 * `details.primary`. The lease is already blocked.
 */
function unconfirmedTermination(
  primary: unknown,
  cleanupError: CreateosError,
  timedOut: boolean,
): CreateosError {
  const first = timedOut
    ? { code: "TIMED_OUT", message: "The command timed out." }
    : PaperclipError.is(primary)
      ? { code: primary.code, message: primary.message }
      : { code: "UNKNOWN", message: primary instanceof Error ? primary.message : String(primary) };
  return new CreateosError("ERR_CREATEOS_CLEANUP_FAILED", cleanupError.message, {
    cause: timedOut ? cleanupError : primary,
    details: { ...cleanupError.details, primary: first, timedOut, leaseBlocked: true },
  });
}
