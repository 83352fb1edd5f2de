import { CreateosApiError, PaperclipError } from "@paperclipai/errors";
import type { PluginEnvironmentLease, PluginEnvironmentResumeLeaseParams } from "@paperclipai/plugin-sdk";
import type { CreateosClient } from "../client/createos-client.js";
import { unlessAborted } from "../client/unless-aborted.js";
import { budgetWithin, hostBound, hostResumeLimitMs } from "../plugin/host-limits.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { hasValidMarker, type LeaseMetadata, leaseSpecMatches, MARKER_PATH } from "./lease-metadata.js";
import { resolveLease } from "./resolve-lease.js";
import {
  readSandboxStatus,
  requestTransition,
  runShortCommand,
  transitionSandbox,
  waitForStatus,
} from "./sandbox-api.js";

/** States a sandbox never leaves: the lease can only be replaced. */
const ENDED = new Set(["gone", "destroyed", "failed"]);

/**
 * Upstream's answer for a lease that can no longer be resumed; the host then acquires a
 * fresh lease instead of failing the run (a thrown resume keeps the old lease and fails).
 */
function expired(): PluginEnvironmentLease {
  return { providerLeaseId: null, metadata: { expired: true } };
}

/**
 * Expired because the workspace marker is not the lease's (missing, different, or never a
 * marker of ours). `workspaceSentinel.result` other than `matched` makes the host record the
 * replacement as `identity_mismatch` instead of `not_found` (upstream's keys stay as they are).
 */
function markerMismatch(): PluginEnvironmentLease {
  return { providerLeaseId: null, metadata: { expired: true, workspaceSentinel: { result: "mismatched" } } };
}

/** A wait that ended because the sandbox is gone for good (not a timeout, not `error`). */
function endedWhileWaiting(error: unknown): boolean {
  if (!PaperclipError.is(error, "ERR_CREATEOS_SANDBOX_STATE")) return false;
  return error.details.timedOut !== true && ENDED.has(String(error.details.status));
}

/**
 * Reconnects to a lease. A lease for another company, environment or origin, or one blocked
 * by an unconfirmed process, is refused (thrown). One that cannot be resumed any more (made
 * with another shape, rootfs or region; a sandbox deleted, failed or gone; a workspace marker
 * missing or different) comes back expired. Status reads are retried on transient failures
 * (the host does not recognise ours as transient across the RPC, so one 503 would otherwise
 * fail the run); failures that outlast the retries are thrown, since they do not prove the
 * sandbox is lost. The whole resume ends within the host's limit for the call
 * (`hostResumeLimitMs`: 60 s, less with a `timeoutMs` under 30 s; `ERR_CREATEOS_HOST_DEADLINE`
 * past it). Resume never deletes.
 */
export async function resumeLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentResumeLeaseParams,
): Promise<PluginEnvironmentLease> {
  const { config, client, metadata } = resolveLease(runtime, params, {
    providerLeaseId: params.providerLeaseId,
    metadata: params.leaseMetadata,
  });
  runtime.leases.assertUsable(metadata.sandboxId);
  if (!leaseSpecMatches(metadata, runtime.spec(config))) return expired();
  if (!hasValidMarker(metadata)) return markerMismatch();
  const bound = hostBound(
    runtime.signal,
    "resume",
    budgetWithin(hostResumeLimitMs(params.config, runtime.hostLimits), runtime.hostLimits),
  );
  const progress: ResumeProgress = {
    answerSignal: AbortSignal.any([runtime.exitSignal, AbortSignal.timeout(config.lifecycleTimeoutMs)]),
    resume: undefined,
  };
  try {
    // A resume the host sent again (it abandoned the first at its limit, which may still be
    // pausing the sandbox it woke) waits for that pause: otherwise the pause could land on
    // the lease this one returns.
    await runtime.leases.untilEnded(metadata.sandboxId, bound.signal);
    const lease = await reconnect(
      client,
      metadata,
      Date.now() + config.lifecycleTimeoutMs,
      bound.signal,
      progress,
    );
    if (lease.providerLeaseId !== null) {
      runtime.leases.hold({
        sandboxId: lease.providerLeaseId,
        client,
        lifecycleTimeoutMs: config.lifecycleTimeoutMs,
      });
    }
    return lease;
  } catch (error) {
    if (error instanceof CreateosApiError && error.status === 404) return expired();
    if (endedWhileWaiting(error)) return expired();
    if (progress.resume !== undefined) {
      await pauseAgain(runtime, client, metadata.sandboxId, config.lifecycleTimeoutMs, progress);
    }
    throw error;
  } finally {
    bound.dispose();
  }
}

/**
 * Whether a resume's `POST` may still take effect after it ended: cut by `answerSignal`, every
 * attempt timed out or lost its connection, or a 5xx (a gateway's, perhaps, for a request its
 * service still carries out). A 2xx, a 409 or a 4xx is CreateOS's last word on it.
 */
function gotNoAnswer(error: unknown, answerSignal: AbortSignal): boolean {
  if (answerSignal.aborted && error === answerSignal.reason) return true;
  if (error instanceof CreateosApiError) return error.status >= 500;
  return (
    PaperclipError.is(error, "ERR_CREATEOS_REQUEST_TIMEOUT") ||
    PaperclipError.is(error, "ERR_CREATEOS_CONNECTION")
  );
}

/** A resume's `POST`, once under way, and what bounds the wait for its answer. */
interface ResumeProgress {
  /**
   * Neither the host's deadline nor the start of shutdown cuts a sent resume: CreateOS may act
   * on one its client abandoned, after any state read that showed the sandbox still paused.
   * Only shutdown's end (`exitSignal`) or the lifecycle timeout stop the wait for its answer.
   */
  readonly answerSignal: AbortSignal;
  resume: Promise<void> | undefined;
}

/**
 * Puts back to sleep a paused sandbox that a failed resume had woken (cut by the host's
 * deadline or by shutdown, or failing on a later step). The host keeps the lease after the
 * failed resume, for a run that may come much later or never (an uninstall), and no worker
 * holds it, so shutdown would not delete it: left awake, the sandbox would run on. The
 * resume's answer is awaited first: until CreateOS has answered it, a state read of `paused`
 * proves nothing (the resume may still be applied). A pause that fails, or a resume that got
 * no answer at all, is told to the host's log.
 */
async function pauseAgain(
  runtime: PluginRuntime,
  client: CreateosClient,
  sandboxId: string,
  lifecycleTimeoutMs: number,
  progress: ResumeProgress,
): Promise<void> {
  const done = runtime.leases.ending(sandboxId);
  try {
    const unanswered = await progress.resume?.then(
      () => false,
      (error: unknown) => gotNoAnswer(error, progress.answerSignal),
    );
    if (unanswered === true) {
      runtime.warn(
        `CreateOS sandbox ${sandboxId} was sent a resume that got no conclusive answer; CreateOS may still wake it, and it would then run until paused or deleted in CreateOS.`,
        { sandboxId },
      );
    }
    const deadline = runtime.cleanupDeadline(lifecycleTimeoutMs);
    const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
    // Still asleep (cut before its request was sent, or answered and refused) or gone.
    const status = await readSandboxStatus(client, sandboxId, signal);
    if (status === "paused" || status === "pausing" || ENDED.has(status)) return;
    await waitForStatus(client, sandboxId, "running", deadline, signal);
    await transitionSandbox(client, sandboxId, "pause", deadline, signal);
  } catch (error) {
    runtime.warn(
      `CreateOS sandbox ${sandboxId} was woken by a resume that then failed and could not be paused again; it may still be running.`,
      {
        sandboxId,
        failure: PaperclipError.is(error) ? { code: error.code, message: error.message } : String(error),
      },
    );
  } finally {
    done();
  }
}

async function reconnect(
  client: CreateosClient,
  metadata: LeaseMetadata,
  deadline: number,
  signal: AbortSignal,
  progress: ResumeProgress,
): Promise<PluginEnvironmentLease> {
  const id = metadata.sandboxId;
  // Retried (beyond upstream, which throws at once): the host keeps the lease after a thrown
  // resume but fails the run, and it retries only errors it can read as transient.
  const status = await readSandboxStatus(client, id, signal);
  if (ENDED.has(status)) return expired();
  if (status === "paused" || status === "pausing") {
    if (status === "pausing") await waitForStatus(client, id, "paused", deadline, signal, "running");
    // Not cut once requested, retries included (see `ResumeProgress`): only the wait for it
    // stops at the deadline.
    signal.throwIfAborted();
    progress.resume = requestTransition(client, id, "resume", progress.answerSignal);
    await unlessAborted(progress.resume, signal);
    await waitForStatus(client, id, "running", deadline, signal, "paused");
  } else {
    await waitForStatus(client, id, "running", deadline, signal);
  }
  // Read as upstream reads it (`/bin/cat` through `exec`): a missing file exits non-zero.
  const marker = await runShortCommand(client, id, "/bin/cat", [MARKER_PATH], signal);
  if (marker.exitCode !== 0 || marker.stdout !== metadata.marker) return markerMismatch();
  return { providerLeaseId: id, metadata: { ...metadata, resumedLease: true }, expiresAt: null };
}
