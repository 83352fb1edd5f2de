import { CreateosError } from "@paperclipai/errors";
import { timerRangeMs } from "../client/timer-range.js";

/**
 * How long the Paperclip host (2026.916.1) waits for a hook. A call past its limit is
 * abandoned without a cancel to the worker, so a step that finishes later (a created
 * sandbox) would be tracked by no lease. Read from the host's code:
 * `plugin-environment-driver.js` (`RPC_OVERHEAD_BUFFER_MS`, the probe's fixed 120 s),
 * `plugin-worker-manager.js` (`DEFAULT_RPC_TIMEOUT_MS`, the 10 s shutdown wait) and
 * `environment-runtime.js` (the 60 s resume deadline).
 */
export interface HostLimits {
  /** Added by the host to the config's `timeoutMs` / `bridgeRequestTimeoutMs` for an acquire. */
  readonly rpcOverheadMs: number;
  /** An acquire's limit when the config has neither key. */
  readonly defaultRpcTimeoutMs: number;
  /** A whole resume, the host's own retries included (one call may get less: `hostResumeLimitMs`). */
  readonly resumeMs: number;
  /** A probe (create, echo and delete). */
  readonly probeMs: number;
  /** Between `shutdown` and the host's SIGTERM. */
  readonly shutdownMs: number;
  /** Kept free before each limit, for the reply and a rollback to start. */
  readonly marginMs: number;
}

export const HOST_LIMITS: HostLimits = Object.freeze({
  rpcOverheadMs: 30_000,
  defaultRpcTimeoutMs: 30_000,
  resumeMs: 60_000,
  probeMs: 120_000,
  shutdownMs: 10_000,
  marginMs: 10_000,
});

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.trunc(value) : undefined;
}

/** `max(timeoutMs, bridgeRequestTimeoutMs) + 30 s` of `rawConfig`, or `undefined` without either key. */
function configRpcLimitMs(
  rawConfig: Record<string, unknown> | undefined,
  limits: HostLimits,
): number | undefined {
  const candidates = [positive(rawConfig?.timeoutMs), positive(rawConfig?.bridgeRequestTimeoutMs)].filter(
    (value): value is number => value !== undefined,
  );
  // The host clamps the wait to what a timer holds (`resolveRpcCallTimeoutMs`); `bridgeRequestTimeoutMs` has no bound.
  return candidates.length === 0 ? undefined : timerRangeMs(Math.max(...candidates) + limits.rpcOverheadMs);
}

/**
 * The host's limit for an acquire, a sync in or a sync out on `rawConfig` (the config it sends,
 * before our defaults): `max(timeoutMs, bridgeRequestTimeoutMs) + 30 s`, or its default RPC
 * timeout without either.
 */
export function hostCallLimitMs(rawConfig: Record<string, unknown> | undefined, limits: HostLimits): number {
  return configRpcLimitMs(rawConfig, limits) ?? limits.defaultRpcTimeoutMs;
}

/**
 * The host's limit for one resume call on `rawConfig`: the same `max(timeoutMs,
 * bridgeRequestTimeoutMs) + 30 s` as an acquire (60 s without either key), never beyond the
 * 60 s of the whole resume. A call past it is abandoned and, its "timed out" message read as
 * transient, sent again while the first still runs.
 */
export function hostResumeLimitMs(
  rawConfig: Record<string, unknown> | undefined,
  limits: HostLimits,
): number {
  return Math.min(limits.resumeMs, configRpcLimitMs(rawConfig, limits) ?? limits.resumeMs);
}

/** A limit less the margin, never below 1 s (the host's own minimum is larger). */
export function budgetWithin(limitMs: number, limits: HostLimits): number {
  return Math.max(1_000, limitMs - limits.marginMs);
}

export type HostBoundOperation = "acquire" | "resume" | "probe" | "sync in" | "sync out";

/** A signal that aborts with `ERR_CREATEOS_HOST_DEADLINE` after `budgetMs` (or with `parent`). */
export interface HostBound {
  readonly signal: AbortSignal;
  /** Whether the budget (not the parent) ended the step. */
  readonly expired: () => boolean;
  readonly dispose: () => void;
}

export function hostBound(parent: AbortSignal, operation: HostBoundOperation, budgetMs: number): HostBound {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(
      new CreateosError(
        "ERR_CREATEOS_HOST_DEADLINE",
        `CreateOS ${operation} did not finish within the host's limit (${budgetMs} ms).`,
        { details: { operation, budgetMs } },
      ),
    );
  }, timerRangeMs(budgetMs));
  timer.unref?.();
  const onParent = (): void => controller.abort(parent.reason);
  if (parent.aborted) onParent();
  else parent.addEventListener("abort", onParent, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onParent);
    },
  };
}
