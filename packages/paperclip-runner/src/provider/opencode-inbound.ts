import { expectedIdentity, identityFailure } from "./codex-identity-events.js";
import { identityFailed } from "./codex-identity-inbound.js";
import { delayedRequestWarning } from "./delayed-request.js";
import type { ExecutorContext } from "./executor-context.js";
import { OPENCODE_RUN_RESULT, opencodeRunResult } from "./opencode-run-result.js";
import { OPENCODE_RUNTIME_REQUEST, opencodeRuntimeRequest } from "./opencode-runtime-request.js";
import { providerProtocol } from "./provider-errors.js";
import { CANCELLED } from "./runtime-input-bridge.js";
import { providerFailed } from "./turn-settlement.js";

/** Whether this provider message is one of the OpenCode proxy's own (and the run's provider is OpenCode). */
export const isOpencodeRequest = (ctx: ExecutorContext, method: string): boolean =>
  method === OPENCODE_RUNTIME_REQUEST && ctx.state().config.provider === "opencode";
export const isOpencodeNotification = (ctx: ExecutorContext, method: string): boolean =>
  method === OPENCODE_RUN_RESULT && ctx.state().config.provider === "opencode";

/**
 * The proxy's `paperclip/runtimeRequest`: the active turn's question is bridged to the server
 * (`RuntimeInputBridge.onOpencodeRequest`); one for another turn is cancelled and, as upstream's
 * runner does, warned of as a late request (the warning's text is returned for the caller to
 * notice as the provider's own). A malformed one fails the provider: upstream's runner exits 1
 * on it, ours ends the session so that the server can close it.
 */
export async function onOpencodeRuntimeRequest(
  ctx: ExecutorContext,
  rpcId: string | number,
  params: Record<string, unknown>,
): Promise<string | null> {
  const parsed = opencodeRuntimeRequest(params);
  if (!parsed.ok) {
    await providerFailed(ctx, providerProtocol(parsed.reason), { code: "provider_protocol_violation" });
    return null;
  }
  if (parsed.request.turnId !== ctx.state().activeProviderTurnId) {
    ctx.session?.peer.respond(rpcId, CANCELLED);
    return delayedRequestWarning(OPENCODE_RUNTIME_REQUEST);
  }
  await ctx.inputs.onOpencodeRequest(rpcId, parsed.request);
  return null;
}

/**
 * The proxy's `paperclip/runResult`: the active turn's valid result is committed at once
 * (`run.result.proposed`, P0) and decides the turn's end (no result is synthesized then); an
 * identical repeat is nothing. Another thread's or turn's fails the turn as upstream's identity
 * failure (`thread_binding_mismatch`, `turn_binding_mismatch`); an invalid or conflicting result fails the provider (upstream's
 * runner exits 1 on it).
 */
export async function onOpencodeRunResult(
  ctx: ExecutorContext,
  params: Record<string, unknown>,
): Promise<void> {
  const state = ctx.state();
  const outcome = opencodeRunResult(params, {
    threadId: state.threadId,
    activeTurnId: state.activeProviderTurnId,
    contract: state.completionContract,
    proposedDigest: state.terminalAuthority?.proposedDigest ?? null,
  });
  switch (outcome.kind) {
    case "duplicate":
      return;
    case "foreign":
      await identityFailed(
        ctx,
        identityFailure(outcome.code, OPENCODE_RUN_RESULT, params, expectedIdentity(state)),
      );
      return;
    case "invalid":
      await providerFailed(ctx, providerProtocol(outcome.reason), { code: "provider_protocol_violation" });
      return;
    case "propose":
      // A resume's held startup facts come before anything else the provider reports.
      if (ctx.deferredStartup?.resume === true) await ctx.releaseStartup();
      ctx.update((current) => ({
        ...current,
        terminalAuthority: {
          disposition: outcome.disposition,
          summary: outcome.summary,
          proposedDigest: outcome.digest,
        },
      }));
      await ctx.emit({ eventType: "run.result.proposed", priority: 0, payload: outcome.result });
      await ctx.save();
      return;
  }
}
