import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { isAlive } from "@paperclipai/test-support";
import type { EngineEvent, EngineReceipt } from "../../src/durable/engine/durable-engine.js";
import type { ServerCommand } from "../../src/durable/state/command-journal.js";
import { CodexExecutor } from "../../src/provider/codex-executor.js";
import type { CodexProviderState } from "../../src/provider/codex-provider-state.js";
import { providerEnvironment } from "../../src/provider/provider-environment.js";
import { withWork, workPaths } from "./codex-durable.js";

// The Codex executor alone (no server), on the real fake app-server: for the orders of the
// provider's and the runner's own steps that a server scenario cannot pin down.

/**
 * Numbers commands from 1, as the server does for a fresh journal: a test whose commands pass a
 * journal (a CommandApplier) takes its own series, since the test files of a worker that does not
 * isolate them share this module, and so `commandOf`'s count.
 */
export function commandSeries(): (type: string, payload?: Record<string, unknown>) => ServerCommand {
  let seq = 0;
  return (type, payload = {}) => ({
    schema: "paperclip.prp.command.v1",
    commandId: `${type}-${++seq}`,
    controllerSeq: seq,
    type,
    issuedAt: "2026-01-01T00:00:00.000Z",
    payload,
  });
}

/** Commands for the executor alone, which checks no controllerSeq: their ids unique in the process. */
export const commandOf = commandSeries();

/** One line of the fake app-server's log (`$CODEX_HOME/log.jsonl`). */
export interface ProviderLogRecord {
  readonly kind: string;
  readonly pid?: number;
  readonly message?: { readonly method?: string };
}

export interface ExecutorAlone {
  readonly executor: CodexExecutor;
  readonly events: EngineEvent["event"][];
  /** Runs one command as durable mode does (`beforeCommand`, then `command`). */
  readonly run: (type: string, payload?: Record<string, unknown>) => Promise<EngineReceipt>;
  readonly stateFile: string;
  readonly readState: () => Promise<CodexProviderState>;
  /** Every record the fake app-servers logged so far. */
  readonly providerLog: () => Promise<ProviderLogRecord[]>;
  /** The pids of the fake app-servers started so far (each logs its start). */
  readonly pids: () => Promise<number[]>;
}

export async function executorAlone(work: string): Promise<ExecutorAlone> {
  const { codexHome } = workPaths(work);
  await mkdir(workPaths(work).cwd, { recursive: true });
  await mkdir(codexHome, { recursive: true });
  const events: EngineEvent["event"][] = [];
  const executor = new CodexExecutor({
    stateDir: work,
    identity: {
      runnerInstanceId: "runner-1",
      runId: "run-1",
      normalizedSessionId: "session-1",
      turnId: "turn-1",
      itemId: "item-1",
    },
    lastEventSeq: 0,
    onEvent: async (event) => {
      events.push(event.event);
    },
    session: {
      spawnSpec: (state: CodexProviderState) => ({
        command: state.config.command,
        args: state.config.args,
        cwd: state.config.cwd,
        env: { ...providerEnvironment("codex", process.env), CODEX_HOME: codexHome },
      }),
      requestTimeoutMs: 10_000,
    },
    recovered: null,
    checkLaunchProfile: () => undefined,
  });
  const run = async (type: string, payload?: Record<string, unknown>) => {
    const command = commandOf(type, payload);
    await executor.beforeCommand(command);
    return await executor.command(command);
  };
  const stateFile = path.join(work, "codex-provider-state.json");
  const readState = async () => JSON.parse(await readFile(stateFile, "utf8")) as CodexProviderState;
  const providerLog = async () => {
    const text = await readFile(path.join(codexHome, "log.jsonl"), "utf8").catch(() => "");
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as ProviderLogRecord);
  };
  const pids = async () =>
    (await providerLog()).filter((record) => record.kind === "start").map((record) => record.pid as number);
  return { executor, events, run, stateFile, readState, providerLog, pids };
}

/** Every provider the test started is stopped, whatever the test's outcome. */
export async function stopAll(pids: () => Promise<number[]>): Promise<void> {
  for (const pid of await pids().catch(() => [])) if (isAlive(pid)) process.kill(pid, "SIGKILL");
}

/**
 * Runs `use` with an executor alone in a fresh work directory; the executor is shut down and
 * every provider it started stopped, whatever the outcome.
 */
export async function withExecutorAlone<T>(
  use: (alone: ExecutorAlone, work: string) => Promise<T>,
): Promise<T> {
  return await withWork(async (work) => {
    const alone = await executorAlone(work);
    try {
      return await use(alone, work);
    } finally {
      alone.executor.shutdown();
      await alone.executor.finished;
      await stopAll(alone.pids);
    }
  });
}
