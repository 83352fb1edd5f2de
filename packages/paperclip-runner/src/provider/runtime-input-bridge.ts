import { boundedText } from "./bounded-text.js";
import type { ProviderEvent } from "./codex-notification-events.js";
import { noticeEvent } from "./codex-plan-notice-events.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import { type CodexAnswers, codexAnswers } from "./codex-question-response.js";
import { codexQuestionSet, type QuestionSet } from "./codex-question-set.js";
import type { CodexSession } from "./codex-session.js";
import { applied, type CommandOutcome, executionFailed } from "./command-outcome.js";
import { opencodeResponseProblem } from "./opencode-question-response.js";
import type { OpencodeRuntimeRequest } from "./opencode-runtime-request.js";
import { MAX_PENDING_INPUT_BYTES } from "./pending-input-bytes.js";
import { newRuntimeRequestScope, runtimeRequestId } from "./runtime-request-id.js";
import { semanticCanonicalJson } from "./semantic-digest.js";

export interface RuntimeInputBridgeDeps {
  readonly emit: (event: ProviderEvent) => Promise<void>;
  readonly state: () => CodexProviderState;
  readonly session: () => CodexSession | null;
  /** The ids' random scope (`newRuntimeRequestScope` by default; a unit test fixes it). */
  readonly scope?: Uint8Array;
}

interface PendingInput {
  readonly rpcId: string | number;
  /** Codex's request params (canonical JSON): a repeat of an open request is the same request only when they match. */
  readonly paramsKey: string;
  readonly questionSet: QuestionSet;
  /** Asked by the OpenCode proxy (`paperclip/runtimeRequest`), answered with a resolution, not Codex's answers. */
  readonly opencode: boolean;
  /** What it counts against upstream's bound on the open questions' size (OpenCode's alone). */
  readonly bytes: number;
}

const METHOD = "item/tool/requestUserInput";
/** Upstream's answer to an OpenCode question that will not be answered (its turn ended, or it came late). */
export const CANCELLED = { resolution: { action: "cancel" } } as const;

/** Upstream's bound on the provider's questions waiting for an answer at once (OpenCode's also on their size). */
export const MAX_PENDING_INPUTS = 128;

/**
 * Pure: upstream's `runtime_request.created` for a provider's question set; its origin is the Codex
 * method the server's transport bridges to its driver, whichever provider asked.
 */
function requestCreated(
  requestId: string,
  prompt: string,
  questionSet: QuestionSet,
  origin: { readonly adapter: string; readonly provider: string },
): ProviderEvent {
  return {
    eventType: "runtime_request.created",
    priority: 0,
    payload: {
      request: {
        schema: "paperclip.runtime_request.v2",
        requestKind: "runtime",
        requestId,
        type: "input",
        status: "pending",
        prompt,
        input: questionSet,
        origin: { ...origin, method: METHOD },
      },
    },
  };
}

/**
 * Codex's `item/tool/requestUserInput` ⇄ PRP runtime requests: the question form becomes a
 * `runtime_request.created` (`paperclip.runtime_request.v2` with a `paperclip.question_set.v1`),
 * which the server's transport bridges to its driver; the server's `request.resolve` answers the
 * provider's request (`{answers:{<question>:{answers:[…]}}}`) and commits `runtime_request.resolved`.
 * The provider's JSON-RPC ids live only in this process, as for semantic tools.
 */
export class RuntimeInputBridge {
  private readonly pending = new Map<string, PendingInput>();
  private scope: Uint8Array;
  /** Upstream's request sequence: one more for each runtime request created, from 1. */
  private sequence = 1n;

  constructor(private readonly deps: RuntimeInputBridgeDeps) {
    this.scope = deps.scope ?? newRuntimeRequestScope();
  }

  /**
   * A new provider process after the last one exited (the runner restarting it): as upstream's
   * runner (observed with its binary, `getrandom` made to count), a new random scope and the
   * sequence from 1 again, so the new process's requests name nothing of the old one's.
   */
  renewScope(scope: Uint8Array = newRuntimeRequestScope()): void {
    this.scope = scope;
    this.sequence = 1n;
  }

  /** The next request's id (keyed as upstream's: Codex's JSON-RPC id, the proxy's `requestId`). */
  private nextId(turnId: string, key: string): string {
    const id = runtimeRequestId(this.scope, turnId, key, this.sequence);
    this.sequence += 1n;
    return id;
  }

  /** Upstream's refusal past its bound on open questions, Codex's or OpenCode's alike. */
  private async refuseAtCapacity(rpcId: string | number): Promise<void> {
    // A provider that never stops asking cannot grow the runner's memory.
    this.deps
      .session()
      ?.peer.respondError(
        rpcId,
        -32000,
        "Paperclip rejected this runtime request because the pending input capacity was reached",
      );
    await this.deps.emit(
      noticeEvent("warning", {
        message: "rejected a Codex runtime request at the bounded pending-input limit",
      }),
    );
  }

  /**
   * Codex's question form. Its JSON-RPC id again while that request is open: the same request
   * when the params match (nothing more is done, as upstream's), else a protocol violation in
   * upstream's words, returned for the caller to fail the provider with (upstream's runner exits 1);
   * so is a form upstream's runner refuses (`codexQuestionSet`).
   */
  async onRequest(rpcId: string | number, params: Record<string, unknown>): Promise<string | null> {
    const session = this.deps.session();
    if (session === null) return null;
    const paramsKey = semanticCanonicalJson(params);
    const open = [...this.pending.values()].find((input) => !input.opencode && input.rpcId === rpcId);
    if (open !== undefined)
      return open.paramsKey === paramsKey ? null : "Codex reused a runtime request id with different input";
    const state = this.deps.state();
    const turnId = state.activeProviderTurnId;
    if (params.threadId !== state.threadId || turnId === null || params.turnId !== turnId) {
      session.peer.respondError(rpcId, -32000, "the input request names another thread or a settled turn");
      return null;
    }
    const questionSet = codexQuestionSet(params);
    if (questionSet !== null && "refused" in questionSet) return questionSet.refused;
    if (questionSet === null) {
      session.peer.respond(rpcId, { answers: {} });
      await this.deps.emit({
        eventType: "harness.diagnostic",
        priority: 2,
        payload: {
          code: "runtime_input_rejected",
          adapter: "codex-app-server",
          method: METHOD,
          reason: "The provider input request did not contain a supported question form.",
        },
      });
      return null;
    }
    if (this.pending.size >= MAX_PENDING_INPUTS) {
      await this.refuseAtCapacity(rpcId);
      return null;
    }
    const requestId = this.nextId(turnId, String(rpcId));
    this.pending.set(requestId, { rpcId, paramsKey, questionSet, opencode: false, bytes: 0 });
    const reason = boundedText(params.reason ?? params.message);
    await this.deps.emit(
      requestCreated(requestId, reason || questionSet.title, questionSet, {
        adapter: "codex-app-server",
        provider: state.config.provider,
      }),
    );
    return null;
  }

  /**
   * The OpenCode proxy's question (checked by `opencodeRuntimeRequest`, for the active turn), as
   * upstream's runner bridges it: a `runtime_request.created` whose prompt is the set's title and
   * whose origin is the Codex method the server's transport bridges to its driver.
   */
  async onOpencodeRequest(rpcId: string | number, request: OpencodeRuntimeRequest): Promise<void> {
    const state = this.deps.state();
    // As upstream's: a repeated question is another request (the sequence gives it its own id).
    const open = [...this.pending.values()].reduce((total, input) => total + input.bytes, 0);
    if (this.pending.size >= MAX_PENDING_INPUTS || open + request.bytes > MAX_PENDING_INPUT_BYTES) {
      await this.refuseAtCapacity(rpcId);
      return;
    }
    const requestId = this.nextId(request.turnId, request.requestId);
    this.pending.set(requestId, {
      rpcId,
      paramsKey: "",
      questionSet: request.questionSet,
      opencode: true,
      bytes: request.bytes,
    });
    await this.deps.emit(
      requestCreated(requestId, request.questionSet.title, request.questionSet, {
        adapter: "opencode-server",
        provider: state.config.provider,
      }),
    );
  }

  /** The server's `request.resolve {requestId, turnId, response}`: delivers the answers to the provider. */
  async resolve(payload: Record<string, unknown>): Promise<CommandOutcome> {
    const requestId = payload.requestId;
    if (typeof requestId !== "string") return executionFailed("request.resolve requires requestId");
    // Upstream's runner fails a request it does not hold, with its words (naming its provider).
    const label = this.deps.state().config.provider === "opencode" ? "OpenCode" : "Codex";
    if (this.deps.state().activeProviderTurnId === null)
      return executionFailed(`cannot resolve a ${label} runtime request outside an active turn`);
    // The response's presence is checked here (`null` passes), its shape once the request is found.
    if (!Object.hasOwn(payload, "response")) return executionFailed("request.resolve requires response");
    const input = this.pending.get(requestId);
    if (input === undefined)
      return executionFailed(
        `${label} runtime response failed: runtime response has no pending Codex request`,
      );
    // A refused answer leaves the request pending: a later one may still answer it.
    if (input.opencode) {
      const checked = opencodeResponseProblem(input.questionSet, payload.response);
      if (!checked.ok) return executionFailed(`OpenCode runtime response failed: ${checked.reason}`);
      this.pending.delete(requestId);
      this.deps.session()?.peer.respond(input.rpcId, {
        resolution: { action: "submit", response: payload.response },
      });
    } else {
      const answers = codexAnswers(input.questionSet, payload.response);
      if (!answers.ok) return executionFailed(`Codex runtime response failed: ${answers.reason}`);
      this.answer(requestId, input, answers.answers);
    }
    await this.deps.emit({
      eventType: "runtime_request.resolved",
      priority: 0,
      payload: { provider: this.deps.state().config.provider, requestId, status: "delivered" },
    });
    return applied({ status: "delivered", requestId });
  }

  /** The turn ended: every open question is answered empty, or cancelled for OpenCode (nothing waits for it). */
  cancelPending(): void {
    for (const [requestId, input] of this.pending) this.answer(requestId, input, {});
  }

  private answer(requestId: string, input: PendingInput, answers: CodexAnswers): void {
    this.pending.delete(requestId);
    this.deps.session()?.peer.respond(input.rpcId, input.opencode ? CANCELLED : { answers });
  }
}
