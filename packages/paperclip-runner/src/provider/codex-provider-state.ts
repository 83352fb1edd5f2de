import { join } from "node:path";
import type { WorkDisposition } from "../events/run-result.js";
import type { ProcessIdentity } from "../harness/process-identity.js";
import { atomicPrivateWrite } from "../private-fs/index.js";
import { corruptState } from "../state/parse-runner-state.js";
import { readStateFile } from "../state/state-store.js";
import type { AuthorizedOperation } from "./authorized-tools.js";
import { type PendingEventRecord, readPendingEvents, readRecordCounters } from "./carried-startup-facts.js";
import { readDescendantThreadIds } from "./codex-descendants.js";
import type { ProviderEvent } from "./codex-notification-events.js";
import type { CodexProviderConfig } from "./codex-provider-config.js";
import { type GoalState, NO_GOALS } from "./session-goals.js";

/** The file the Paperclip server reads beside `runner-state.json` (upstream's name and schema). */
export const CODEX_PROVIDER_STATE_FILE = "codex-provider-state.json";
export const CODEX_PROVIDER_STATE_SCHEMA = "paperclip.runner.codex-provider-state.v1";
/** Upstream's other provider state files: their presence means another executor owns the directory. */
export const OTHER_PROVIDER_STATE_FILES = ["acpx-provider-state.json", "managed-provider-state.json"];

export type CodexLifecycle =
  | "prepared"
  | "session_open"
  | "turn_active"
  | "provider_exited"
  | "reconciliation_required"
  | "closed";

/** A semantic tool call the provider waits on (its request is answered when the result command arrives). */
export interface PendingToolCall {
  readonly callId: string;
  readonly operationId: string;
  readonly providerTurnId: string;
  readonly input: unknown;
}

export interface CompletionContract {
  readonly revision: string;
  readonly criterionIds: readonly string[];
}

/**
 * A turn whose end is saved but whose terminal events may not all be committed yet: the state
 * is saved before them (the server's transport reads the active turn as soon as it sees a turn
 * end), so a runner killed in between leaves them here for its relaunch to commit.
 */
export interface SettlingTurn {
  readonly providerTurnId: string;
  /** The engine event seq the first of `events` takes; each next one takes the next seq. */
  readonly firstEventSeq: number;
  /** The turn's terminal event, then the run's terminal suffix when a contract is bound. */
  readonly events: readonly ProviderEvent[];
}

/**
 * What decided the turn's result: a finished `paperclip_finish` / `paperclip_block` call, or an
 * OpenCode `paperclip/runResult` (then proposed already, and known by its digest).
 */
export interface TerminalAuthority {
  readonly disposition: WorkDisposition;
  readonly summary: string;
  /** The digest of the result committed already (`run.result.proposed`): none is synthesized at the turn's end. */
  readonly proposedDigest?: string;
}

export interface CodexProviderState {
  readonly schema: typeof CODEX_PROVIDER_STATE_SCHEMA;
  readonly lifecycle: CodexLifecycle;
  readonly config: CodexProviderConfig;
  readonly authorizedTools: readonly AuthorizedOperation[];
  readonly completionContract: CompletionContract | null;
  readonly threadId: string | null;
  readonly providerSessionId: string | null;
  readonly providerAccountSessionId: string | null;
  readonly processId: number | null;
  readonly processStartTime: string | null;
  /**
   * How many provider processes this session has tried to start, under upstream's name: the
   * server's native cleanup maintenance requires it a safe integer that its restoring epoch moves
   * up by one for the provider it restores (ours counts a start that failed too; upstream's on a
   * failed start is not compared).
   * States saved before 2026-12-06 name it `processGeneration` (read by `readProviderProcessGeneration`).
   */
  readonly providerProcessGeneration: number;
  readonly activeProviderTurnId: string | null;
  readonly ambiguousTurnStartPending: boolean;
  /**
   * Held startup facts a suspend carried to the next run, not yet in the runner's outbox
   * (upstream's records, `carried-startup-facts.ts`); empty otherwise.
   */
  readonly pendingEvents: readonly PendingEventRecord[];
  /** The number the next carried record's `executorEventId` takes (absent in a state saved before carrying). */
  readonly nextProviderEventSeq?: number;
  /**
   * The engine seq the first of `pendingEvents` takes while they are being committed (saved
   * before, cleared after), so a relaunch after a kill in between commits only the lost ones.
   */
  readonly pendingEventsReleaseFirstSeq?: number | null;
  readonly queuedEvents: readonly unknown[];
  readonly pendingToolCalls: readonly PendingToolCall[];
  readonly settledToolCallIds: readonly string[];
  /**
   * Calls an interrupt, a stop or a recovery settled without the server's result (absent in a
   * state saved before they were kept): a result arriving for one later completes
   * `settled_after_turn`; a result for an id never called fails as upstream's does.
   */
  readonly abandonedToolCallIds?: readonly string[];
  readonly lastAgentMessage: string | null;
  readonly terminalAuthority: TerminalAuthority | null;
  /** The turn being settled (absent in a state saved before settlements were recorded). */
  readonly settlingTurn?: SettlingTurn | null;
  /** The session's goal API, goal and snapshot revision (absent in a state saved before goals). */
  readonly goals?: GoalState;
  /**
   * The thread's sub-agent threads Codex reported (upstream's name and order, `codex-descendants.ts`);
   * absent in a state saved before they were kept.
   */
  readonly descendantThreadIds?: readonly string[];
}

export function preparedState(
  config: CodexProviderConfig,
  authorizedTools: readonly AuthorizedOperation[],
  completionContract: CompletionContract | null,
): CodexProviderState {
  return {
    schema: CODEX_PROVIDER_STATE_SCHEMA,
    lifecycle: "prepared",
    config,
    authorizedTools,
    completionContract,
    threadId: null,
    providerSessionId: null,
    providerAccountSessionId: null,
    processId: null,
    processStartTime: null,
    providerProcessGeneration: 0,
    activeProviderTurnId: null,
    ambiguousTurnStartPending: false,
    pendingEvents: [],
    nextProviderEventSeq: 1,
    pendingEventsReleaseFirstSeq: null,
    queuedEvents: [],
    pendingToolCalls: [],
    settledToolCallIds: [],
    lastAgentMessage: null,
    terminalAuthority: null,
    settlingTurn: null,
    goals: NO_GOALS,
    descendantThreadIds: [],
  };
}

export function providerProcessOf(state: CodexProviderState): ProcessIdentity | null {
  return state.processId !== null && state.processStartTime !== null
    ? { pid: state.processId, startTime: state.processStartTime }
    : null;
}

/** Writes the state with the atomic private recipe (0600, fsynced, renamed into place). */
export function saveCodexProviderState(stateDir: string, state: CodexProviderState): Promise<void> {
  return atomicPrivateWrite(stateDir, CODEX_PROVIDER_STATE_FILE, `${JSON.stringify(state)}\n`);
}

/** The state a previous runner left, or null when this directory has none. */
export async function loadCodexProviderState(stateDir: string): Promise<CodexProviderState | null> {
  const text = await readStateFile(join(stateDir, CODEX_PROVIDER_STATE_FILE));
  if (text === null) return null;
  const { processGeneration: legacyGeneration, ...state } = JSON.parse(text) as CodexProviderState & {
    readonly processGeneration?: unknown;
  };
  if (state.schema !== CODEX_PROVIDER_STATE_SCHEMA) return null;
  return {
    ...state,
    providerProcessGeneration: readProviderProcessGeneration(
      state.providerProcessGeneration,
      legacyGeneration,
    ),
    pendingEvents: readPendingEvents(state.pendingEvents),
    ...readRecordCounters(state),
    settledToolCallIds: readToolCallIds(state.settledToolCallIds, "settledToolCallIds"),
    abandonedToolCallIds: readToolCallIds(state.abandonedToolCallIds, "abandonedToolCallIds"),
    descendantThreadIds: readDescendantThreadIds(state.descendantThreadIds),
  };
}

/**
 * Pure: the saved provider process generation, from `providerProcessGeneration` or, in a state
 * saved before that name, `processGeneration` (dropped, so the next save writes only the new
 * name). Anything but a non-negative safe integer is `ERR_RUNNER_STATE_CORRUPT`: the generation
 * numbers provider exits (`session.failed`) and the server's maintenance compares it.
 */
export function readProviderProcessGeneration(saved: unknown, legacy: unknown): number {
  const generation = saved === undefined ? legacy : saved;
  if (typeof generation !== "number" || !Number.isSafeInteger(generation) || generation < 0)
    throw corruptState("codex-provider-state.json providerProcessGeneration is not a process generation");
  return generation;
}

/**
 * Pure: a saved list of tool call ids (none when absent: a state saved before the list was kept).
 * A late result is answered from these lists by exact match, so anything but a list of non-empty
 * strings (a string would match by substring) is `ERR_RUNNER_STATE_CORRUPT`.
 */
export function readToolCallIds(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((id) => typeof id === "string" && id !== ""))
    throw corruptState(`codex-provider-state.json ${field} is not a list of call ids`);
  return value as string[];
}
