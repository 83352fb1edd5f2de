import { createHash, randomUUID } from "node:crypto";
import { PaperclipError } from "@paperclipai/errors";
import type { ServerCommand } from "../durable/command-journal.js";
import type { DurableEngine, EngineEvent, EngineReceipt } from "../durable/durable-engine.js";
import { killStaleProcessGroup } from "../harness/process-identity.js";
import { canonicalJson } from "../protocol/canonical-json.js";
import { readAuthorizedTools } from "./authorized-tools.js";
import {
  codexNotificationEvents,
  type ProviderEvent,
  type TurnTerminalStatus,
} from "./codex-notification-events.js";
import { readCodexProviderConfig } from "./codex-provider-config.js";
import {
  type CodexProviderState,
  type CompletionContract,
  preparedState,
  providerProcessOf,
  saveCodexProviderState,
} from "./codex-provider-state.js";
import { CodexSession, type SessionDeps } from "./codex-session.js";
import { codexTerminalEvents } from "./codex-terminal-events.js";
import type { ProviderInbound } from "./json-rpc-peer.js";
import { providerProtocol } from "./provider-errors.js";
import { startupFacts } from "./provider-startup-facts.js";
import { SemanticToolBridge } from "./semantic-tool-bridge.js";
import { sessionGoalEvents } from "./session-goal-events.js";

export interface CodexExecutorDeps {
  readonly stateDir: string;
  readonly identity: {
    readonly runnerInstanceId: string;
    readonly runId: string;
    readonly normalizedSessionId: string;
    readonly turnId: string;
    readonly itemId: string;
  };
  /** The last engine event seq durable mode already holds (events continue after it). */
  readonly lastEventSeq: number;
  readonly onEvent: (event: EngineEvent) => Promise<void>;
  readonly session: Omit<SessionDeps, "onInbound">;
  /** The state a previous runner left (a restart), or null. */
  readonly recovered: CodexProviderState | null;
  readonly checkLaunchProfile: (state: CodexProviderState) => void;
}

type Outcome = { status: string; detail: string; result?: Record<string, unknown> };
type StartupCommand = {
  readonly commandId: string;
  readonly commandType: string;
  readonly controllerSeq: number;
};

/** The lifecycles whose thread a restarted runner resumes. */
const RESUMABLE: ReadonlySet<string> = new Set(["session_open", "turn_active", "provider_exited"]);

function commandSubject(command: ServerCommand): StartupCommand {
  return { commandId: command.commandId, commandType: command.type, controllerSeq: command.controllerSeq };
}

/** What a session that failed reconciliation still takes (upstream's list). */
const AFTER_RECONCILIATION_FAILURE: ReadonlySet<string> = new Set([
  "session.snapshot",
  "session.close",
  "session.destroy",
  "turn.interrupt",
  "run.cancel",
  "turn.stop",
]);

/**
 * The Codex app-server executor (also OpenCode's, behind the same facade): PRP
 * commands become app-server calls, the provider's notifications become PRP
 * events as upstream maps them. Commands and provider messages are handled one
 * at a time in arrival order (one actor), so a notification that arrives while
 * a request is answered waits for it, as upstream buffers it.
 */
export class CodexExecutor implements DurableEngine {
  readonly ready: Promise<void>;
  readonly finished: Promise<number>;
  private finish!: (code: number) => void;
  private done = false;
  private actor: Promise<unknown> = Promise.resolve();
  private eventSeq: number;
  private state: CodexProviderState | null;
  private session: CodexSession | null = null;
  private readonly tools: SemanticToolBridge;
  private recoveryPending: boolean;
  /** Startup facts of a session.open, committed after the next command's own events (upstream's order). */
  private deferred: { readonly commandId: string; readonly events: readonly ProviderEvent[] } | null = null;

  constructor(private readonly deps: CodexExecutorDeps) {
    this.eventSeq = deps.lastEventSeq;
    this.state = deps.recovered;
    this.finished = new Promise((resolve) => {
      this.finish = resolve;
    });
    this.tools = new SemanticToolBridge({
      identity: deps.identity,
      emit: (event) => this.emit(event),
      state: () => this.requireState(),
      update: (change) => this.update(change),
      session: () => this.session,
    });
    // A restarted runner resumes the provider when the server's first command arrives (as upstream's does).
    this.recoveryPending = deps.recovered !== null;
    this.ready = Promise.resolve();
  }

  /** Runs before every command durable mode handles (drain and suspend included): a pending recovery happens first. */
  beforeCommand(command: ServerCommand): Promise<void> {
    if (!this.recoveryPending) return Promise.resolve();
    return this.run(async () => {
      if (!this.recoveryPending) return;
      this.recoveryPending = false;
      await this.recover(commandSubject(command));
    });
  }

  get isFinished(): boolean {
    return this.done;
  }

  command(command: ServerCommand): Promise<EngineReceipt> {
    return this.run(async () => {
      const outcome = await this.apply(command).catch((error: unknown) => failed(error));
      const deferred = this.deferred;
      if (deferred !== null && deferred.commandId !== command.commandId) {
        this.deferred = null;
        for (const event of deferred.events) await this.emit(event);
      }
      return {
        kind: "receipt" as const,
        commandId: command.commandId,
        status: outcome.status,
        detail: outcome.detail,
        original: null,
        ...(outcome.result === undefined ? {} : { result: outcome.result }),
      };
    });
  }

  acknowledge(): void {
    // Events are in durable mode's outbox before `onEvent` resolves: nothing is retained here.
  }

  shutdown(): void {
    void this.run(async () => {
      await this.session?.stop();
      this.session = null;
      if (this.state !== null) await this.save();
      this.done = true;
      this.finish(0);
    });
  }

  /** Stops the provider at once without touching the state (the runner is failing; the next one resumes). */
  async kill(): Promise<void> {
    await this.session?.stop(0);
  }

  private run<T>(step: () => Promise<T>): Promise<T> {
    const next = this.actor.then(step, step);
    this.actor = next.catch(() => undefined);
    return next;
  }

  private requireState(): CodexProviderState {
    if (this.state === null) throw new Error("run.prepare has not bound a provider");
    return this.state;
  }

  private update(change: (state: CodexProviderState) => CodexProviderState): void {
    this.state = change(this.requireState());
  }

  private save(): Promise<void> {
    return saveCodexProviderState(this.deps.stateDir, this.requireState());
  }

  private async emit(event: ProviderEvent): Promise<void> {
    this.eventSeq += 1;
    await this.deps.onEvent({
      kind: "event",
      engineSeq: this.eventSeq,
      event: {
        eventType: event.eventType,
        payload: event.payload,
        priority: event.priority,
        ...(event.schemaVersion === undefined ? {} : { schemaVersion: event.schemaVersion }),
        emittedAt: new Date().toISOString(),
      },
      engineLastControllerSeq: null,
    });
  }

  // ---- commands -----------------------------------------------------------------------------------

  private async apply(command: ServerCommand): Promise<Outcome> {
    const payload = command.payload;
    if (command.type === "run.prepare") return await this.prepare(payload);
    const state = this.requireState();
    if (state.lifecycle === "reconciliation_required" && !AFTER_RECONCILIATION_FAILURE.has(command.type)) {
      return {
        status: "rejected",
        detail: `the provider session needs reconciliation; ${command.type} is refused`,
      };
    }
    switch (command.type) {
      case "session.open":
        return await this.open(commandSubject(command));
      case "turn.start":
        return await this.startTurn(payload);
      case "turn.steer":
        return await this.steer(payload);
      case "turn.interrupt":
      case "run.cancel":
        return await this.interrupt(String(payload.reason ?? command.type));
      case "turn.stop":
        return await this.stopTurn(String(payload.reason ?? "turn.stop"));
      case "semantic_tool.result":
        return await this.tools.deliverResult(payload);
      case "session.snapshot":
        return { status: "accepted", detail: "command applied", result: this.snapshot(state) };
      case "session.close":
      case "session.destroy":
        return await this.close();
      default:
        return {
          status: "rejected",
          detail: `${command.type} is not available from the ${state.config.provider} provider`,
          result: { status: "rejected", code: "provider_command_unavailable" },
        };
    }
  }

  private async prepare(payload: Record<string, unknown>): Promise<Outcome> {
    const config = readCodexProviderConfig(payload.provider);
    const tools = readAuthorizedTools(payload.authorizedTools);
    const contract = readContract(payload.completionContract);
    if (this.state !== null && this.state.lifecycle !== "prepared" && this.state.lifecycle !== "closed") {
      return { status: "rejected", detail: "the provider session is already open" };
    }
    const next = preparedState(config, tools, contract);
    this.deps.checkLaunchProfile(next);
    this.state = next;
    await this.save();
    return {
      status: "accepted",
      detail: "command applied",
      result: { status: "prepared", provider: config.provider, driver: config.driver },
    };
  }

  private async open(command: StartupCommand): Promise<Outcome> {
    const state = this.requireState();
    if (this.session !== null && (state.lifecycle === "session_open" || state.lifecycle === "turn_active")) {
      return { status: "accepted", detail: "command applied", result: this.identityResult("started") };
    }
    const resumed = state.threadId !== null;
    const facts = await this.startSession(resumed ? "restore" : "ensure", command);
    const status = resumed ? "resumed" : "started";
    await this.emit({
      eventType: resumed ? "session.resumed" : "session.started",
      priority: 0,
      payload: this.identityPayload(),
    });
    if (!resumed) {
      const goal = await (this.session as CodexSession)
        .request("thread/goal/get", { threadId: this.requireState().threadId })
        .catch(() => null);
      for (const event of sessionGoalEvents(goal)) await this.emit(event);
    }
    this.deferred = { commandId: command.commandId, events: facts };
    return { status: "accepted", detail: "command applied", result: this.identityResult(status) };
  }

  /** Starts the provider and opens (or resumes) the thread; returns the startup facts to commit. */
  private async startSession(
    trigger: "ensure" | "restore",
    command: StartupCommand | null,
  ): Promise<ProviderEvent[]> {
    const state = this.requireState();
    const generation = state.processGeneration + 1;
    this.update((current) => ({ ...current, processGeneration: generation }));
    const session: CodexSession = new CodexSession({
      ...this.deps.session,
      // Messages of a provider this executor already let go of are not this session's.
      onInbound: (message: ProviderInbound): Promise<void> =>
        this.run(async () => {
          if (this.session === session) await this.onInbound(message);
        }),
    });
    this.session = session;
    try {
      const opened = await session.open(state);
      this.update((current) => ({
        ...current,
        lifecycle: current.activeProviderTurnId === null ? "session_open" : "turn_active",
        threadId: opened.threadId,
        providerSessionId: opened.threadId,
        providerAccountSessionId: opened.accountSessionId,
        processId: opened.process.pid,
        processStartTime: opened.process.startTime,
      }));
      await this.save();
      const { runnerInstanceId, runId, normalizedSessionId, turnId, itemId } = this.deps.identity;
      return startupFacts(
        {
          generation,
          command,
          configurationFingerprint: `sha256:${createHash("sha256").update(canonicalJson(state.config)).digest("hex")}`,
          launchId: randomUUID(),
          origin: { itemId, normalizedSessionId, runId, runnerInstanceId, turnId },
          trigger,
          requestedThreadId: state.threadId,
        },
        opened.process.pid,
      );
    } catch (error) {
      await this.providerFailed(error, "provider_start_failed");
      throw error;
    }
  }

  private identityPayload(): Record<string, unknown> {
    const state = this.requireState();
    return {
      provider: state.config.provider,
      providerSessionId: state.threadId,
      providerAccountSessionId: state.providerAccountSessionId,
      processId: state.processId,
    };
  }

  private identityResult(status: string): Record<string, unknown> {
    const state = this.requireState();
    return {
      status,
      provider: state.config.provider,
      driver: state.config.driver,
      providerVersion: state.config.providerVersion,
      providerSessionId: state.threadId,
      processId: state.processId,
    };
  }

  private async startTurn(payload: Record<string, unknown>): Promise<Outcome> {
    const state = this.requireState();
    if (typeof payload.text !== "string")
      return { status: "rejected", detail: "turn.start requires payload.text" };
    if (state.activeProviderTurnId !== null || state.ambiguousTurnStartPending) {
      return { status: "rejected", detail: "a provider turn is already active" };
    }
    const session = this.session;
    if (session === null || state.lifecycle !== "session_open") {
      return { status: "rejected", detail: "the provider session is not open" };
    }
    this.update((current) => ({
      ...current,
      ambiguousTurnStartPending: true,
      lastAgentMessage: null,
      terminalAuthority: null,
    }));
    await this.save();
    let turnId: string;
    try {
      turnId = await session.startTurn(state, payload.text);
    } catch (error) {
      this.update((current) => ({ ...current, ambiguousTurnStartPending: false }));
      await this.providerFailed(error, "provider_turn_start_failed");
      throw error;
    }
    this.update((current) => ({
      ...current,
      lifecycle: "turn_active",
      activeProviderTurnId: turnId,
      ambiguousTurnStartPending: false,
    }));
    await this.save();
    await this.emit({
      eventType: "turn.accepted",
      priority: 0,
      payload: { provider: state.config.provider, providerSessionId: state.threadId, providerTurnId: turnId },
    });
    return {
      status: "accepted",
      detail: "command applied",
      result: { status: "accepted", providerTurnId: turnId },
    };
  }

  private async steer(payload: Record<string, unknown>): Promise<Outcome> {
    const state = this.requireState();
    if (payload.mode !== undefined && payload.mode !== "steer")
      return { status: "rejected", detail: "turn.steer mode must be steer" };
    if (state.activeProviderTurnId === null || this.session === null)
      return { status: "rejected", detail: "no provider turn is active" };
    await this.session.request("turn/steer", {
      threadId: state.threadId,
      expectedTurnId: state.activeProviderTurnId,
      input: [{ type: "text", text: String(payload.text ?? ""), text_elements: [] }],
    });
    return { status: "accepted", detail: "command applied", result: { status: "steered" } };
  }

  private async interrupt(reason: string): Promise<Outcome> {
    const state = this.requireState();
    const turnId = state.activeProviderTurnId;
    if (turnId === null || this.session === null) {
      return { status: "accepted", detail: "command applied", result: { status: "already_settled", reason } };
    }
    await this.tools.cancelPending("interrupted");
    await this.session.request("turn/interrupt", { threadId: state.threadId, turnId });
    return {
      status: "accepted",
      detail: "command applied",
      result: { status: "interrupt_requested", reason, providerTurnId: turnId },
    };
  }

  private async stopTurn(reason: string): Promise<Outcome> {
    const state = this.requireState();
    const turnId = state.activeProviderTurnId;
    await this.session?.stop();
    this.session = null;
    if (turnId === null) {
      this.update((current) => ({
        ...current,
        lifecycle: current.lifecycle === "closed" ? "closed" : "prepared",
      }));
      await this.save();
      return { status: "accepted", detail: "command applied", result: { status: "already_settled", reason } };
    }
    await this.tools.cancelPending("stopped");
    await this.settleTurn("interrupted", { reason });
    this.update((current) => ({ ...current, lifecycle: "prepared" }));
    await this.save();
    return {
      status: "accepted",
      detail: "command applied",
      result: {
        status: "stopped",
        providerTurnId: turnId,
        reason,
        interruptAccepted: false,
        providerExitConfirmed: true,
      },
    };
  }

  private async close(): Promise<Outcome> {
    const state = this.requireState();
    await this.session?.stop();
    this.session = null;
    if (state.activeProviderTurnId !== null)
      await this.settleTurn("interrupted", { reason: "session closed" });
    this.update((current) => ({ ...current, lifecycle: "closed", processId: null, processStartTime: null }));
    await this.save();
    await this.emit({
      eventType: "session.closed",
      priority: 0,
      payload: { provider: state.config.provider, providerSessionId: state.threadId },
    });
    return {
      status: "accepted",
      detail: "command applied",
      result: { status: "closed", providerSessionId: state.threadId },
    };
  }

  private snapshot(state: CodexProviderState): Record<string, unknown> {
    return {
      status: state.lifecycle,
      provider: state.config.provider,
      driver: state.config.driver,
      driverSessionId: state.threadId,
      providerSessionId: state.threadId,
      sessionId: state.providerAccountSessionId,
      providerAccountSessionId: state.providerAccountSessionId,
      activeProviderTurnId: state.activeProviderTurnId,
      sessionGoals: "unsupported",
      goal: null,
      goalRevision: 0,
      warmAttachReady: false,
      warmAttachBlockers: ["warm_attach_unsupported"],
      cwd: state.config.cwd,
    };
  }

  // ---- provider messages --------------------------------------------------------------------------

  private async onInbound(message: ProviderInbound): Promise<void> {
    if (this.state === null || this.session === null) return;
    switch (message.kind) {
      case "violation":
        await this.providerFailed(message.error, "provider_protocol_violation");
        return;
      case "exit":
        await this.providerFailed(
          new Error(
            message.exit.kind === "spawn_failed"
              ? message.exit.message
              : `the provider exited (code ${message.exit.exitCode})`,
          ),
          "provider_exited",
          message.exit.kind === "exited" ? message.exit.exitCode : null,
        );
        return;
      case "request":
        await this.onRequest(message.id, message.method, message.params);
        return;
      case "notification":
        await this.onNotification(message.method, message.params);
        return;
    }
  }

  private async onRequest(
    id: string | number,
    method: string,
    params: Record<string, unknown>,
  ): Promise<void> {
    const session = this.session;
    if (session === null) return;
    if (method === "item/tool/call") {
      await this.tools.onCall(id, params);
      return;
    }
    session.peer.respondError(id, -32601, "provider request is unavailable in this runner layer");
    await this.emit({
      eventType: "harness.diagnostic",
      priority: 2,
      payload: { code: "provider_request_unavailable", method: method.slice(0, 160) },
    });
  }

  private async onNotification(method: string, params: Record<string, unknown>): Promise<void> {
    const state = this.requireState();
    const outcome = codexNotificationEvents(method, params, {
      provider: state.config.provider,
      threadId: state.threadId ?? "",
      activeTurnId: state.activeProviderTurnId,
    });
    switch (outcome.kind) {
      case "ignored":
        return;
      case "foreign":
        await this.providerFailed(
          providerProtocol(outcome.reason),
          "provider_notification_identity",
          null,
          "reconciliation_required",
          { classification: "foreign" },
        );
        return;
      case "agent_message":
        this.update((current) => ({ ...current, lastAgentMessage: outcome.text }));
        for (const event of outcome.events) await this.emit(event);
        return;
      case "events":
        for (const event of outcome.events) await this.emit(event);
        return;
      case "terminal":
        await this.settleTurn(outcome.status, null, outcome.event);
        await this.save();
        return;
    }
  }

  /** Ends the active turn: its terminal event, then the run's terminal suffix when a contract is bound. */
  private async settleTurn(
    status: TurnTerminalStatus,
    extra: Record<string, unknown> | null,
    event?: ProviderEvent,
  ): Promise<void> {
    const state = this.requireState();
    const turnId = state.activeProviderTurnId;
    if (turnId === null) return;
    this.update((current) => ({
      ...current,
      activeProviderTurnId: null,
      ambiguousTurnStartPending: false,
      lifecycle: current.lifecycle === "turn_active" ? "session_open" : current.lifecycle,
    }));
    await this.emit(
      event ?? {
        eventType: `turn.${status}`,
        priority: 0,
        payload: { provider: state.config.provider, providerTurnId: turnId, status, ...extra },
      },
    );
    if (state.completionContract !== null) {
      for (const terminal of codexTerminalEvents(
        state.config.provider,
        status,
        state.completionContract,
        state.terminalAuthority,
        state.lastAgentMessage,
      )) {
        await this.emit(terminal);
      }
    }
  }

  /** The provider is unusable: its group stopped, the failure reported, the active turn failed with its terminal. */
  private async providerFailed(
    error: unknown,
    code: string,
    exitCode: number | null = null,
    lifecycle: "provider_exited" | "reconciliation_required" = "provider_exited",
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    const session = this.session;
    this.session = null;
    await session?.stop(0);
    const message =
      error instanceof PaperclipError
        ? `${error.code}: ${error.message}`
        : String((error as Error)?.message ?? error);
    const state = this.requireState();
    await this.emit({
      eventType: "harness.diagnostic",
      priority: 0,
      payload: { code, ...detail, message: message.slice(0, 1000) },
    });
    await this.emit({
      eventType: "session.failed",
      priority: 0,
      payload: {
        provider: state.config.provider,
        providerSessionId: state.threadId,
        code,
        exitCode,
        message: message.slice(0, 1000),
      },
    });
    await this.tools.cancelPending("provider_failed");
    if (state.activeProviderTurnId !== null) {
      await this.settleTurn("failed", { code, providerTerminalObserved: false });
    }
    this.update((current) => ({ ...current, lifecycle, processId: null, processStartTime: null }));
    await this.save();
  }

  // ---- recovery -----------------------------------------------------------------------------------

  /**
   * A restart, on the server's first command: the dead runner's provider is
   * stopped, an open session resumes its exact thread, and the turn it had
   * running is reconciled (still running, or failed with its terminal).
   */
  private async recover(command: StartupCommand): Promise<void> {
    const state = this.requireState();
    const stale = providerProcessOf(state);
    if (stale !== null) killStaleProcessGroup(stale);
    await this.emit({
      eventType: "runner.reconciled",
      priority: 0,
      payload: { outcome: "same_durable_session_resumed" },
    });
    if (!RESUMABLE.has(state.lifecycle) || state.threadId === null) return;
    const previousTurnId = state.activeProviderTurnId;
    try {
      const facts = await this.startSession("restore", command);
      for (const event of facts) await this.emit(event);
    } catch {
      return;
    }
    await this.emit({ eventType: "session.resumed", priority: 0, payload: this.identityPayload() });
    const session = this.session;
    if (session === null) return;
    const stillActive =
      previousTurnId !== null &&
      (await session.turnIsActive(this.requireState(), previousTurnId).catch(() => false));
    // The dead runner asked for a turn and never learnt its id: the provider process that would run it is gone.
    this.update((current) => ({
      ...current,
      ambiguousTurnStartPending: false,
      lifecycle: stillActive ? "turn_active" : current.lifecycle,
    }));
    await this.save();
    await this.emit({
      eventType: "session.reconciled",
      priority: 0,
      payload: {
        activeProviderTurnId: stillActive ? previousTurnId : null,
        previousProviderTurnId: previousTurnId,
        provider: state.config.provider,
        providerSessionId: state.threadId,
      },
    });
    if (previousTurnId === null || stillActive) return;
    await this.tools.cancelPending("provider_turn_lost");
    await this.settleTurn("failed", { providerTerminalObserved: false });
    await this.save();
  }
}

function readContract(value: unknown): CompletionContract | null {
  const contract = value as { revision?: unknown; criterionIds?: unknown } | null | undefined;
  if (contract === null || contract === undefined || typeof contract !== "object") return null;
  if (typeof contract.revision !== "string" && typeof contract.revision !== "number") return null;
  if (!Array.isArray(contract.criterionIds)) return null;
  return { revision: String(contract.revision), criterionIds: contract.criterionIds.map(String) };
}

function failed(error: unknown): Outcome {
  if (error instanceof PaperclipError) {
    const rejected =
      error.code === "ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED" ||
      error.code === "ERR_RUNNER_PROVIDER_CONFIG_INVALID";
    return { status: rejected ? "rejected" : "failed", detail: `${error.code}: ${error.message}` };
  }
  return { status: "failed", detail: String((error as Error)?.message ?? error).slice(0, 1000) };
}
