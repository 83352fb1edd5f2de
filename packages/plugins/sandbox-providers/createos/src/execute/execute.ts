import { type CreateosError, PaperclipError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import { resourceId } from "../client/envelope.js";
import { primaryOutcome, unconfirmedTermination } from "./command-failure.js";
import { CommandOutput, type ExecuteResult, type FollowFacts } from "./command-output.js";
import { CommandRun } from "./command-run.js";
import { DEFAULT_FOLLOW_TUNING, type FollowTuning } from "./follow-tuning.js";
import { OutputFollower } from "./output-follower.js";
import type { ExitStatus, OutputStream } from "./output-frame.js";
import { killProcessTree } from "./process-api.js";
import { createProcess, type LeaseGuard } from "./process-creation.js";
import { processCommand, validateCommand } from "./shell-script.js";
import { removeStagedStdin, stageStdin, stdinFilePath } from "./staged-stdin.js";
import { followWithStdinClosed } from "./stdin-close-alongside.js";
import { DEFAULT_TAIL_CHARS } from "./tail-buffer.js";

export type { ExecuteResult } from "./command-output.js";
export type { LeaseGuard } from "./process-creation.js";

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
  /**
   * Shortens a cleanup deadline when the cleanup starts (the plugin cuts it once shutdown has
   * begun, to end before the host's SIGTERM); `ms` is `cleanupTimeoutMs`. Default: unchanged.
   */
  readonly cleanupMs?: ((ms: number) => number) | undefined;
}

export const DEFAULT_EXECUTE_TUNING: ExecuteTuning = {
  ...DEFAULT_FOLLOW_TUNING,
  tailChars: DEFAULT_TAIL_CHARS,
  cleanupTimeoutMs: 10_000,
};

/** The deadline of a cleanup starting now. */
function cleanupTimeout(settings: ExecuteTuning): number {
  return Math.max(1, settings.cleanupMs?.(settings.cleanupTimeoutMs) ?? settings.cleanupTimeoutMs);
}

/** One command on its way: what it was asked, and what exists of it so far. */
interface RemoteCommand {
  readonly client: CreateosClient;
  readonly sandboxId: string;
  readonly request: ExecuteRequest;
  readonly settings: ExecuteTuning;
  readonly guard: LeaseGuard | undefined;
  readonly run: CommandRun;
  readonly output: CommandOutput;
  /** Named before the upload starts: an upload that fails midway may still have left the file. */
  readonly stdinPath: string | undefined;
  readonly facts: { processId: string | undefined; follower: OutputFollower | undefined };
}

function followFacts(command: RemoteCommand): FollowFacts {
  return { processId: command.facts.processId, stats: command.facts.follower?.stats };
}

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
  const run = new CommandRun(request.signal, request.timeoutMs);
  const stdinPath = request.stdin === undefined ? undefined : stdinFilePath();
  const output = new CommandOutput(settings.tailChars, request.onLog);
  const facts: RemoteCommand["facts"] = { processId: undefined, follower: undefined };
  const command: RemoteCommand = {
    client,
    sandboxId,
    request,
    settings,
    guard,
    run,
    output,
    stdinPath,
    facts,
  };
  try {
    // 8. Result.
    return output.result(await runToExit(command), followFacts(command));
  } catch (error) {
    return await endAfterFailure(command, error);
  } finally {
    run.dispose();
    if (stdinPath !== undefined)
      await removeStagedStdin(client, sandboxId, stdinPath, cleanupTimeout(settings));
  }
}

/** Steps 2-6: stage stdin, create the process, follow its output with stdin closed. */
async function runToExit(command: RemoteCommand): Promise<ExitStatus> {
  const { client, sandboxId, request, run, stdinPath } = command;
  // 2. Stage stdin as a file.
  if (stdinPath !== undefined)
    await stageStdin(client, sandboxId, stdinPath, request.stdin ?? "", run.signal);
  const started = processCommand({
    command: request.command,
    args: request.args,
    cwd: request.cwd,
    env: request.env,
    stdinPath,
  });
  // 3. Create the process: never retried, and an unconfirmed outcome blocks the lease.
  const processId = await createProcess(client, sandboxId, started, run.signal, command.guard);
  command.facts.processId = processId;
  // 4.-6. No interactive stdin; follow the output (both at once).
  const follower = new OutputFollower(client, sandboxId, processId, command.settings, command.output.sink);
  command.facts.follower = follower;
  return followWithStdinClosed(client, sandboxId, processId, follower, run.signal);
}

/** Step 7: whatever happened after the process exists, its tree is killed. */
async function endAfterFailure(command: RemoteCommand, error: unknown): Promise<ExecuteResult> {
  // Nothing to kill by id; the guard already blocked the lease.
  if (PaperclipError.is(error, "ERR_CREATEOS_PROCESS_UNCONFIRMED")) throw error;
  // Read before the kill: the deadline may still fire while it runs.
  const { timedOut, cancelled, cancelReason } = command.run;
  const primary = primaryOutcome(error, { timedOut, cancelled, cancelReason });
  const cleanupError = await killAfterFailure(command);
  // The host sees only a message: a process that may still run must be what it reads.
  if (cleanupError) throw unconfirmedTermination(primary, cleanupError, timedOut);
  if (timedOut) return command.output.result(null, followFacts(command));
  throw primary;
}

/** Kills the tree, if there is one; a kill that fails blocks the lease and is returned. */
async function killAfterFailure(command: RemoteCommand): Promise<CreateosError | undefined> {
  const { processId } = command.facts;
  if (processId === undefined) return undefined;
  try {
    await killProcessTree(command.client, command.sandboxId, processId, cleanupTimeout(command.settings));
    return undefined;
  } catch (killError) {
    command.guard?.block("process cleanup");
    return killError as CreateosError;
  }
}
