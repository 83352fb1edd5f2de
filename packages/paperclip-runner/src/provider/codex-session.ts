import type { ProcessIdentity } from "../harness/process-identity.js";
import { dynamicTools } from "./authorized-tools.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import { JsonRpcPeer, type ProviderInbound } from "./json-rpc-peer.js";
import { providerProtocol, providerStartFailed } from "./provider-errors.js";
import type { ProviderExit, ProviderSpawnSpec } from "./provider-process.js";

export interface SessionDeps {
  /** The provider's spawn (command, args, cwd, environment), from the bound configuration. */
  readonly spawnSpec: (state: CodexProviderState) => ProviderSpawnSpec;
  readonly requestTimeoutMs: number;
  readonly onInbound: (message: ProviderInbound) => Promise<void>;
}

export interface OpenedSession {
  readonly threadId: string;
  readonly accountSessionId: string | null;
  readonly process: ProcessIdentity;
  /**
   * A new thread's goal probe (`thread/goal/get`), asked as soon as the thread
   * exists; resolves to null when the provider refused it (goals unsupported).
   * No probe for a resumed thread.
   */
  readonly goalProbe: Promise<Record<string, unknown> | null> | null;
}

/** Upstream's bound on provider ids. */
const MAX_ID_LENGTH = 240;

/**
 * One provider process and its thread, spoken to as upstream's runner does:
 * `initialize` (experimental API on), `initialized`, then `thread/start` with the
 * bound tools and instructions, or `thread/resume` of the exact stored thread
 * (the three written at once).
 */
export class CodexSession {
  private rpc: JsonRpcPeer | null = null;
  private initializing: Promise<Record<string, unknown>> | null = null;

  constructor(private readonly deps: SessionDeps) {}

  get peer(): JsonRpcPeer {
    if (this.rpc === null) throw providerStartFailed("the provider is not started");
    return this.rpc;
  }

  /**
   * Spawns the provider and sends `initialize` and `initialized`: no thread yet. `open` does
   * this itself when it was not done before (`provider-prewarm.ts` does it ahead of `open`).
   */
  start(state: CodexProviderState): void {
    if (this.rpc !== null) return;
    const peer = new JsonRpcPeer(this.deps.spawnSpec(state), this.deps.onInbound, this.deps.requestTimeoutMs);
    this.rpc = peer;
    const initializing = peer.request("initialize", {
      clientInfo: { name: "paperclip-runnerd", title: "Paperclip Runner", version: "1" },
      capabilities: { experimentalApi: true, requestAttestation: false },
    });
    // Awaited by `open`; a failure before then is not an unhandled rejection.
    initializing.catch(() => undefined);
    this.initializing = initializing;
    peer.notify("initialized");
  }

  /** `probeGoals`: a new thread's goal API is probed right behind `thread/start` (not for a thread a command started before `session.open`). */
  async open(state: CodexProviderState, probeGoals = true): Promise<OpenedSession> {
    this.start(state);
    const peer = this.peer;
    const identity = peer.process.identity;
    // Pipelined: Codex reads its stdin in order, so initialize, initialized and the thread
    // request go out together and the thread request waits in Codex's pipe, not for a round
    // trip through this process (verified with Codex 0.156.1; the PRP stream is unchanged).
    const initializing = this.initializing as Promise<Record<string, unknown>>;
    const config = state.config;
    const common = {
      cwd: config.cwd,
      model: config.model,
      approvalPolicy: config.approvalPolicy,
      runtimeWorkspaceRoots: [config.cwd],
      ...(config.externallySandboxed
        ? { sandbox: "danger-full-access" }
        : { permissions: "paperclip-runner-workspace-only" }),
      ...(config.instructions === null ? {} : { baseInstructions: config.instructions }),
      ...(config.includeSkillInstructions === null
        ? {}
        : { config: { "skills.include_instructions": config.includeSkillInstructions } }),
    };
    // As upstream's runner: OpenCode's proxy builds its driver from the thread request, on a resume
    // as on a start: its MCP bridge's tools, and its task envelope's contract (so the result
    // OpenCode proposes claims the bound one).
    const opencode = config.kind === "opencode";
    const contract =
      opencode && state.completionContract !== null ? { completionContract: state.completionContract } : {};
    const tools = { dynamicTools: dynamicTools(state.authorizedTools) };
    const opening =
      state.threadId === null
        ? peer.request("thread/start", { ...common, ...tools, experimentalRawEvents: false, ...contract })
        : peer.request("thread/resume", {
            ...common,
            threadId: state.threadId,
            ...(opencode ? { ...tools, ...contract } : { excludeTurns: true }),
          });
    // A failed initialize is the failure reported; the thread request then fails with it.
    opening.catch(() => undefined);
    const initialized = await initializing;
    if (identity === null) throw providerStartFailed("the provider process has no identity");
    const answer = await opening;
    const thread = (answer.thread ?? {}) as { id?: unknown; sessionId?: unknown };
    const threadId = thread.id ?? answer.threadId;
    if (typeof threadId !== "string" || threadId.length === 0 || threadId.length > MAX_ID_LENGTH) {
      throw providerProtocol("the thread answer has no valid thread id");
    }
    if (state.threadId !== null && threadId !== state.threadId) {
      throw providerProtocol("thread/resume answered with another thread");
    }
    const user = (initialized.user ?? {}) as { sessionId?: unknown };
    const account = thread.sessionId ?? user.sessionId;
    return {
      threadId,
      accountSessionId: typeof account === "string" ? account : null,
      process: identity,
      goalProbe:
        state.threadId === null && probeGoals
          ? peer.request("thread/goal/get", { threadId }).catch(() => null)
          : null,
    };
  }

  /** `turn/start`; resolves with the provider's turn id (a success without one is a protocol failure). */
  async startTurn(state: CodexProviderState, text: string): Promise<string> {
    const config = state.config;
    const answer = await this.peer.request("turn/start", {
      threadId: state.threadId,
      cwd: config.cwd,
      runtimeWorkspaceRoots: [config.cwd],
      input: [{ type: "text", text, text_elements: [] }],
      ...(config.externallySandboxed
        ? { sandboxPolicy: { type: "externalSandbox", networkAccess: "enabled" } }
        : { permissions: "paperclip-runner-workspace-only" }),
    });
    const turnId = (answer.turn as { id?: unknown } | undefined)?.id ?? answer.turnId;
    if (typeof turnId !== "string" || turnId.length === 0 || turnId.length > MAX_ID_LENGTH) {
      throw providerProtocol("turn/start answered without a turn id");
    }
    return turnId;
  }

  /** After a resume: whether the provider still runs the turn the dead runner had started. */
  async turnIsActive(state: CodexProviderState, turnId: string): Promise<boolean> {
    const read = await this.peer.request("thread/read", { threadId: state.threadId, includeTurns: false });
    const status = (read.thread as { status?: { type?: unknown } } | undefined)?.status?.type;
    if (status !== "active") return false;
    const listed = await this.peer.request("thread/turns/list", {
      threadId: state.threadId,
      limit: 100,
      sortDirection: "desc",
      itemsView: "notLoaded",
    });
    const turns = Array.isArray(listed.data) ? (listed.data as { id?: unknown; status?: unknown }[]) : [];
    return turns.some((turn) => turn.id === turnId && turn.status === "inProgress");
  }

  /** How the provider ended, once it has; null while it runs (or before it started). */
  get exit(): ProviderExit | null {
    return this.rpc?.process.exitStatus ?? null;
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.peer.request(method, params);
  }

  /** Stops the provider's group (TERM, then KILL after the grace; at once with 0). */
  async stop(graceMs?: number): Promise<void> {
    await this.rpc?.process.stop(graceMs);
  }
}
