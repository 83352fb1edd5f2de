import type { ProviderEvent } from "./codex-notification-events.js";
import type { CodexProviderState, PendingToolCall } from "./codex-provider-state.js";
import type { CodexSession } from "./codex-session.js";
import { applied, type CommandOutcome, executionFailed, rejected } from "./command-outcome.js";
import { CompletedToolCalls } from "./completed-tool-calls.js";
import { type LiveCall, reusedCallIds } from "./reused-call-ids.js";
import { semanticCanonicalJson, semanticContentDigest } from "./semantic-digest.js";
import { serdeJson } from "./serde-json.js";
import { terminalAuthority } from "./terminal-authority.js";
import { checkToolCall, MAX_TOOL_VALUE_BYTES } from "./tool-call-check.js";
import { resultShapeError, validCallId } from "./tool-result-shape.js";

/** Upstream's bound on pending semantic calls. */
const MAX_PENDING_CALLS = 4096;

/** What upstream's runner answers Codex for a denied call (the model reads it as the tool's output). */
const DENIED_OUTPUT = JSON.stringify({
  error: {
    code: "invalid_tool_call",
    message: "Paperclip rejected this semantic tool call",
    retryable: false,
  },
});

export interface SemanticToolBridgeDeps {
  readonly identity: {
    readonly runId: string;
    readonly normalizedSessionId: string;
    readonly turnId: string;
    readonly itemId: string;
  };
  readonly emit: (event: ProviderEvent) => Promise<void>;
  readonly state: () => CodexProviderState;
  readonly update: (change: (state: CodexProviderState) => CodexProviderState) => void;
  /** Persists the provider state file. */
  readonly save: () => Promise<void>;
  readonly session: () => CodexSession | null;
}

/**
 * Codex's `item/tool/call` ⇄ PRP `semantic_tool.input` / `semantic_tool.result`:
 * a call the run authorized becomes a P0 input event whose content digest is the
 * one the control plane recomputes; the control plane's result command answers
 * the provider's request. The provider's request ids live only in this process:
 * after a restart Codex re-issues a pending call, and the runner answers it
 * without a second input event.
 */
export class SemanticToolBridge {
  /** The pending calls' JSON-RPC requests by call id: the id, the session it came on, its params (canonical JSON). */
  private readonly requestIds = new Map<string, LiveCall>();
  private readonly completed = new CompletedToolCalls();

  constructor(private readonly deps: SemanticToolBridgeDeps) {}

  private correlation(): Record<string, string> {
    const { runId, normalizedSessionId, turnId, itemId } = this.deps.identity;
    return { runId, normalizedSessionId, turnId, itemId };
  }

  /**
   * Codex's call. A reused id while the call under it is open, on the same session, is returned as
   * a protocol violation in upstream's words (upstream's runner exits 1 on it): see `reusedCallIds`.
   */
  async onCall(rpcId: string | number, params: Record<string, unknown>): Promise<string | null> {
    const session = this.deps.session();
    if (session === null) return null;
    const state = this.deps.state();
    const refuse = async (code: string, message: string): Promise<void> => {
      session.peer.respond(rpcId, { success: false, contentItems: [{ type: "inputText", text: message }] });
      await this.deps.emit({ eventType: "harness.diagnostic", priority: 2, payload: { code, message } });
    };
    const checked = checkToolCall(state, params);
    if (checked.kind === "rpc-error") {
      session.peer.respondError(rpcId, -32000, checked.message);
      return null;
    }
    if (checked.kind === "refused") {
      await refuse(checked.code, checked.message);
      return null;
    }
    if (checked.kind === "denied") {
      await this.deny(rpcId, session, checked);
      return null;
    }
    const { callId, operationId, input } = checked;
    const paramsKey = semanticCanonicalJson(params);
    const open = [...this.requestIds].filter(([, live]) => live.session === session);
    const reused = reusedCallIds(open, rpcId, callId, paramsKey);
    if (reused !== "new") return reused === "same" ? null : reused;
    // A completed call's id again (upstream's answers): its answer replayed, or the call denied.
    const again = this.completed.match(state, callId, input);
    if (again.kind === "replayed") {
      session.peer.respond(rpcId, again.answer);
      return null;
    }
    if (again.kind === "denied") {
      await this.deny(rpcId, session, { callId, operationId, message: again.message });
      return null;
    }
    this.requestIds.set(callId, { rpcId, session, paramsKey });
    // A restarted provider (or runner) asking again for a call still pending: answered once the result comes.
    if (state.pendingToolCalls.some((call) => call.callId === callId)) return null;
    if (state.pendingToolCalls.length >= MAX_PENDING_CALLS) {
      await refuse("semantic_tool_limit", "too many pending tool calls");
      return null;
    }
    const call: PendingToolCall = {
      callId,
      operationId,
      providerTurnId: state.activeProviderTurnId as string,
      input,
    };
    this.deps.update((current) => ({ ...current, pendingToolCalls: [...current.pendingToolCalls, call] }));
    // Persisted before its input event: a restarted runner knows the call it must settle.
    await this.deps.save();
    await this.emitInput(call);
    return null;
  }

  /** A denied call: Codex told it failed, the control plane told nothing ran (upstream's P0 diagnostic). */
  private async deny(
    rpcId: string | number,
    session: CodexSession,
    denied: { readonly callId: string; readonly operationId: string; readonly message: string },
  ): Promise<void> {
    session.peer.respond(rpcId, {
      success: false,
      contentItems: [{ type: "inputText", text: DENIED_OUTPUT }],
    });
    await this.deps.emit({
      eventType: "harness.diagnostic",
      priority: 0,
      payload: {
        code: "semantic_tool_denied",
        provider: this.deps.state().config.provider,
        callId: denied.callId,
        operationId: denied.operationId,
        message: denied.message,
        paperclipExecuted: false,
      },
    });
  }

  /** The P0 `semantic_tool.input` event, its content digest the one the control plane recomputes. */
  private async emitInput(call: PendingToolCall): Promise<void> {
    await this.deps.emit({
      eventType: "semantic_tool.input",
      priority: 0,
      payload: {
        semantic_tool: {
          schema: "paperclip.prp.semantic_tool.v1",
          schemaVersion: 1,
          phase: "input",
          operationId: call.operationId,
          callId: call.callId,
          correlation: this.correlation(),
          idempotencyKey: null,
          content: {
            digest: semanticContentDigest(call.input),
            redactionDisposition: "digest_only",
            references: [],
          },
          input: call.input,
        },
      },
    });
  }

  async deliverResult(payload: Record<string, unknown>): Promise<CommandOutcome> {
    const state = this.deps.state();
    const shapeError = resultShapeError(payload);
    if (shapeError !== null) return executionFailed(`semantic tool result is invalid: ${shapeError}`);
    const callId = payload.callId as string;
    if (!validCallId(callId))
      return executionFailed("semantic tool result was rejected: tool result call id is invalid");
    const call = state.pendingToolCalls.find((pending) => pending.callId === callId);
    if (call === undefined) {
      if (state.settledToolCallIds.includes(callId)) {
        await this.deps.emit({
          eventType: "harness.diagnostic",
          priority: 2,
          payload: { code: "semantic_tool_result_duplicate", callId },
        });
        return applied({ status: "duplicate", callId });
      }
      // A call the turn's end settled: completed, so the server's close can prove suspension
      // (upstream's runner fails it, a documented difference).
      if ((state.abandonedToolCallIds ?? []).includes(callId))
        return applied({ status: "settled_after_turn", callId });
      return executionFailed(
        "semantic tool result was rejected: tool result does not match a pending provider call",
      );
    }
    if (payload.operationId !== undefined && payload.operationId !== call.operationId) {
      return rejected("semantic_tool.result names another operation");
    }
    const isError = payload.isError === true;
    const result = payload.result ?? null;
    const authority = terminalAuthority(call.operationId, isError, result);
    this.deps.update((current) => ({
      ...current,
      pendingToolCalls: current.pendingToolCalls.filter((pending) => pending.callId !== callId),
      settledToolCallIds: [...current.settledToolCallIds, callId].slice(-MAX_PENDING_CALLS),
      terminalAuthority: current.terminalAuthority ?? authority,
    }));
    await this.deps.emit(this.resultEvent(call, result, isError));
    const rpcId = this.requestIds.get(callId)?.rpcId;
    this.requestIds.delete(callId);
    // The provider reads the result as upstream's runner writes it (keys sorted, as serde_json).
    const text = serdeJson(result);
    const answer = {
      success: !isError,
      contentItems: [{ type: "inputText", text: text.slice(0, MAX_TOOL_VALUE_BYTES) }],
    };
    this.completed.record(call.providerTurnId, callId, call.input, answer);
    if (rpcId !== undefined) this.deps.session()?.peer.respond(rpcId, answer);
    return applied({ status: "delivered", callId });
  }

  /**
   * Settles every pending call with a failed `semantic_tool.result`, as upstream commits it, so
   * the control plane stops waiting: after a restart whose provider no longer has the turn, and
   * when the turn is interrupted. An interrupted provider abandons the call itself, so it is not
   * answered (upstream's stream then has no `tool.execution.completed` for it).
   */
  async failPending(reason: string, answerProvider: boolean): Promise<void> {
    const pending = this.deps.state().pendingToolCalls;
    if (pending.length === 0) return;
    if (answerProvider) {
      await this.cancelPending(reason);
    } else {
      for (const call of pending) this.requestIds.delete(call.callId);
      this.deps.update((current) =>
        abandonCalls(
          current,
          pending.map((call) => call.callId),
        ),
      );
    }
    for (const call of pending) {
      await this.deps.emit(this.resultEvent(call, { error: `tool call ${reason}` }, true));
    }
    await this.deps.save();
  }

  /** Settles every pending call (the turn ended or the provider is gone); returns their ids. */
  async cancelPending(reason: string): Promise<string[]> {
    const state = this.deps.state();
    const ids = state.pendingToolCalls.map((call) => call.callId);
    if (ids.length === 0) return ids;
    const session = this.deps.session();
    for (const id of ids) {
      const rpcId = this.requestIds.get(id)?.rpcId;
      this.requestIds.delete(id);
      if (rpcId !== undefined) {
        session?.peer.respond(rpcId, {
          success: false,
          contentItems: [{ type: "inputText", text: `tool call ${reason}` }],
        });
      }
    }
    // A result that arrives for one of these later is answered `settled_after_turn`.
    this.deps.update((current) => abandonCalls(current, ids));
    return ids;
  }
  private resultEvent(call: PendingToolCall, result: unknown, isError: boolean): ProviderEvent {
    return {
      eventType: "semantic_tool.result",
      priority: 0,
      payload: {
        semantic_tool: {
          schema: "paperclip.prp.semantic_tool.v1",
          schemaVersion: 1,
          phase: "result",
          operationId: call.operationId,
          callId: call.callId,
          correlation: this.correlation(),
          idempotencyKey: null,
          content: {
            digest: semanticContentDigest(result),
            redactionDisposition: "digest_only",
            references: [],
          },
          outcome: isError ? "failed" : "succeeded",
          code: isError ? "semantic_tool_failed" : "semantic_tool_succeeded",
          retryable: false,
          authorizationBoundary: "active_task",
          operationReceiptId: `operation_${call.callId}`,
        },
      },
    };
  }
}

/** Pure: the state once these pending calls are settled without the server's result. */
function abandonCalls(state: CodexProviderState, ids: readonly string[]): CodexProviderState {
  return {
    ...state,
    pendingToolCalls: [],
    abandonedToolCallIds: [...(state.abandonedToolCallIds ?? []), ...ids].slice(-MAX_PENDING_CALLS),
  };
}
