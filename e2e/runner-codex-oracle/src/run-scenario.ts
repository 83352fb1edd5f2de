import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { PrpEventLike } from "./normalise-events.js";
import type { CodexToolchain } from "./toolchain.js";

const run = promisify(execFile);
const DRIVER = path.join(import.meta.dirname, "../driver/codex-driver.mjs");

/** `turn`: identity, one plain turn, close. `session`: identity, plain, tool-call, steer and interrupt turns, snapshot, close. `recovery`: SIGKILL mid-turn (the model stalled), resume, next turn, close. `recovery-tool`: the same with a tool call pending. `ask`: the model asks the user (Codex's request_user_input), the server's form answers. `goals`: the goal API (get, set a paused goal, get, clear, get), a budget increase, snapshot, close. `edges`: parallel tool calls, a refused tool result, an unknown tool, a credential in a tool input, reasoning and a long answer with secrets, a stream cut mid-response, then a close with a turn in flight. `interrupt-tool`: a turn interrupted with a tool call the server answers only afterwards, the next turn, close. `reopen`: a plain turn, close (drain, suspend), a new transport on the same state resumes the thread (as the server's next run does), a turn, close. `reopen-stopped`: the same, the first run closing with a turn in flight. `more`: two turns in a row with usage (one streamed in many deltas after reasoning), a late steer and interrupt, a response with streamed reasoning, a web search, a message and a tool call, a shell command, an HTTP 500 and a cut stream Codex retries, a snapshot mid-turn, a steer while a tool call is pending, an interrupt before the model's first byte, a turn.start while a turn is active, the Codex process killed mid-turn and between turns (each followed by a turn), close. `beyond`: three tool calls in one response (answered, refused, the handler throwing), a streamed answer over 1 MiB of multi-byte text, a reasoning-only and an empty answer, HTTP 401 and 400 (not retried) and a 429 retried after `retry-after`, a snapshot after a failed turn, a turn right after a provider error, a steer right behind an interrupt, the runner stopped with SIGTERM mid-turn and resumed, close. `further`: very long instructions, three turns with usage then a snapshot, two messages and a call in one response, a call whose arguments are not JSON, a call with large arguments, control characters in an answer and a call, a model error after a tool call, an interrupt mid-stream, empty and blank turn inputs (and an empty one while a turn is active), the runner SIGKILLed before the model's first byte and resumed, the next turn, a close while an answer streams. `breadth`: usage with cached and reasoning tokens, tool calls chained over three model requests, Codex's plan tool, a turn of several input items, secret shapes in an answer, reasoning, a user's input, a tool's result, a steer and a model error, `response.failed` and `response.incomplete` in a 200 stream, an exhausted quota, a turn after them, close. `odd-calls`: call arguments that are JSON but no object, two calls of one call id, a known and an unknown tool in one response, a turn after them, close. `limits`: turn texts and a steer of 100 000 bytes, ten calls in one response, close. `large-commands` (ours alone): the same inputs at a million bytes. `lifecycle`: raw `runner.drain` while idle and while a turn is held, `runner.suspend` while idle, a command queued once the runner is gone, the next run resuming for a turn, `runner.suspend` mid-turn, close. `tools`: MCP tool calls (a long output, progress, refused, missing), view_image, apply_patch through the shell tool, rate-limit and reroute headers, an answer cut by max_output_tokens, close. `results`: tool results of 100 000 bytes, of control characters and of 300 items, then 30 turns, a read, close. `results-ours` (ours alone): tool results with lone surrogates and of 600 000 bytes, a prompt with a lone surrogate. `pending`: runner.drain and runner.suspend while the server holds a tool call, close, the next run resuming for a turn. `subagent` (ours alone): turns in which the model spawns a sub-agent (Codex's `spawn_agent`), the child asking the model beside its parent, close. */
export type ScenarioKind =
  | "turn"
  | "session"
  | "recovery"
  | "recovery-tool"
  | "goals"
  | "ask"
  | "edges"
  | "interrupt-tool"
  | "reopen"
  | "reopen-stopped"
  | "more"
  | "beyond"
  | "further"
  | "breadth"
  | "odd-calls"
  | "limits"
  | "large-commands"
  | "lifecycle"
  | "tools"
  | "results"
  | "results-ours"
  | "pending"
  | "subagent";

export interface StepRecord {
  readonly step: string;
  readonly ms: number;
  readonly error?: string;
  readonly [field: string]: unknown;
}

export interface CommittedEvent extends PrpEventLike {
  readonly sourceSeq: number;
  readonly sourceEventId: string;
}

export interface ServerCommandOutcome {
  readonly type: string;
  readonly status: string;
  readonly result: unknown;
}

export interface ScenarioOutcome {
  readonly steps: ReadonlyMap<string, StepRecord>;
  readonly events: readonly CommittedEvent[];
  /** Every command the server queued, in order: its type, status and the runner's result. */
  readonly commands: readonly ServerCommandOutcome[];
  readonly schemaIssues: readonly unknown[];
  readonly toolCalls: readonly { tool: string; arguments: unknown }[];
  readonly steerReachedModel: boolean | undefined;
  /** `ask`: the questions the server's handler got (bridged from runtime requests), and whether the answer reached the model. */
  readonly userInputs:
    | { readonly requests: readonly { id: string; params: unknown }[]; readonly answerReachedModel: boolean }
    | undefined;
  /** `edges`: what the model was told of each tool call (Codex's `function_call_output`), by call id. */
  readonly modelToolOutputs: Readonly<Record<string, string>>;
  /** The agent message of the plain turn, as the server's driver received it. */
  readonly answer: string | null | undefined;
  readonly fatal: string | undefined;
  /** Pids of the runner's or Codex's group still alive after the close (then killed by the driver). */
  readonly leftovers: readonly number[];
  /** `remoteRunnerFile`: the process the server's remote launcher started (its identity marker's pid) and its argv. */
  readonly remoteRunner: { readonly pid: number | null; readonly argv: readonly string[] | null } | undefined;
  /** Every line the driver printed, for a failure message. */
  readonly transcript: string;
}

export interface ScenarioOptions {
  /**
   * The runner's `PATH` starts with the server's own Node (24) directory, as in a deployment where
   * the server was started by the `node` on its `PATH` (the server hands its `PATH` to the runner,
   * whose bin runs on the first `node` there). Otherwise the runner gets this process's `PATH`.
   */
  readonly serverNodeFirstOnPath?: boolean;
  /**
   * A runner file staged alone in a loopback "sandbox" (as `PAPERCLIP_RUNNER_REMOTE_BINARY_PATH`)
   * and started by the server's own remote launcher, instead of `runnerBin` spawned locally.
   */
  readonly remoteRunnerFile?: string;
}

/**
 * Runs one scenario of the Node 24 driver against one runner binary, in a private work directory
 * (its name has a space) that is removed afterwards, whatever happens.
 */
export async function runCodexScenario(
  tools: CodexToolchain,
  runnerBin: string,
  kind: ScenarioKind,
  options: ScenarioOptions = {},
): Promise<ScenarioOutcome> {
  const work = await mkdtemp(path.join(os.tmpdir(), "codex oracle-"));
  try {
    const input = {
      kind,
      serverDir: tools.serverDir,
      codex: tools.codex,
      runnerBin,
      work,
      serverNodeFirstOnPath: options.serverNodeFirstOnPath === true,
      remoteRunnerFile: options.remoteRunnerFile,
    };
    const { stdout } = await run(tools.node24, [DRIVER, JSON.stringify(input)], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 110_000,
    });
    return parseTranscript(stdout);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function parseTranscript(stdout: string): ScenarioOutcome {
  const records = stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { type: string; [field: string]: unknown });
  const steps = new Map<string, StepRecord>();
  for (const record of records.filter((entry) => entry.type === "step")) {
    steps.set(String(record.step), record as unknown as StepRecord);
  }
  const toolCalls = records.find((entry) => entry.type === "tool_calls")?.calls;
  const steer = records.find((entry) => entry.type === "steer_reached_model")?.value;
  return {
    steps,
    events: records
      .filter((entry) => entry.type === "committed")
      .map((entry) => entry.event as CommittedEvent),
    commands: records
      .filter((entry) => entry.type === "command")
      .map((entry) => entry.command as ServerCommandOutcome),
    schemaIssues: records.filter((entry) => entry.type === "schema_issue"),
    toolCalls: (toolCalls ?? []) as ScenarioOutcome["toolCalls"],
    steerReachedModel: typeof steer === "boolean" ? steer : undefined,
    userInputs: records.find((entry) => entry.type === "user_inputs") as ScenarioOutcome["userInputs"],
    modelToolOutputs: (records.find((entry) => entry.type === "model_tool_outputs")?.outputs ??
      {}) as ScenarioOutcome["modelToolOutputs"],
    answer: records.find((entry) => entry.type === "answer")?.text as string | null | undefined,
    fatal: records.find((entry) => entry.type === "error")?.message as string | undefined,
    remoteRunner: records.find((entry) => entry.type === "remote_runner") as ScenarioOutcome["remoteRunner"],
    leftovers: records.filter((entry) => entry.type === "leftover_killed").map((entry) => Number(entry.pid)),
    transcript: stdout,
  };
}
