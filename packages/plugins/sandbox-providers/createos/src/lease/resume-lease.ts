import { CreateosApiError } from "@paperclipai/errors";
import type { PluginEnvironmentLease, PluginEnvironmentResumeLeaseParams } from "@paperclipai/plugin-sdk";
import type { CreateosClient } from "../client/createos-client.js";
import { unlessAborted } from "../client/unless-aborted.js";
import { budgetWithin, hostBound, hostResumeLimitMs } from "../plugin/host-limits.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { hasValidMarker, type LeaseMetadata, leaseSpecMatches, MARKER_PATH } from "./lease-metadata.js";
import { pauseAgain } from "./pause-again.js";
import { resolveLease } from "./resolve-lease.js";
import { ResumeRequest } from "./resume-request.js";
import { readSandboxStatus, runShortCommand, waitForStatus } from "./sandbox-api.js";
import { endedWhileWaiting, isEnded } from "./sandbox-state.js";

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
  const resume = new ResumeRequest(runtime.exitSignal, config.lifecycleTimeoutMs);
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
      resume,
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
    // The hook answers within the host's limit; the re-pause goes on without it.
    if (resume.started) {
      runtime.detach(pauseAgain(runtime, client, metadata.sandboxId, config.lifecycleTimeoutMs, resume));
    }
    throw error;
  } finally {
    bound.dispose();
  }
}

async function reconnect(
  client: CreateosClient,
  metadata: LeaseMetadata,
  deadline: number,
  signal: AbortSignal,
  resume: ResumeRequest,
): Promise<PluginEnvironmentLease> {
  const id = metadata.sandboxId;
  // Retried (beyond upstream, which throws at once): the host keeps the lease after a thrown
  // resume but fails the run, and it retries only errors it can read as transient.
  const status = await readSandboxStatus(client, id, signal);
  if (isEnded(status)) return expired();
  if (status === "paused" || status === "pausing") {
    if (status === "pausing") await waitForStatus(client, id, "paused", deadline, signal, "running");
    // Not cut once sent, retries included (see `ResumeRequest`): only the wait for it stops at
    // the deadline.
    await unlessAborted(resume.send(client, id, signal), signal);
    await waitForStatus(client, id, "running", deadline, signal, "paused");
  } else {
    await waitForStatus(client, id, "running", deadline, signal);
  }
  // Read as upstream reads it (`/bin/cat` through `exec`): a missing file exits non-zero.
  const marker = await runShortCommand(client, id, "/bin/cat", [MARKER_PATH], signal);
  if (marker.exitCode !== 0 || marker.stdout !== metadata.marker) return markerMismatch();
  return { providerLeaseId: id, metadata: { ...metadata, resumedLease: true }, expiresAt: null };
}
