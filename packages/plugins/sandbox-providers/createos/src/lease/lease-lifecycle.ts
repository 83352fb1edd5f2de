import { randomBytes } from "node:crypto";
import { CreateosError } from "@paperclipai/errors";
import type {
  PluginEnvironmentAcquireLeaseParams,
  PluginEnvironmentDestroyLeaseParams,
  PluginEnvironmentLease,
  PluginEnvironmentReleaseLeaseParams,
  PluginEnvironmentTerminationReceipt,
} from "@paperclipai/plugin-sdk";
import type { CreateosClient } from "../client/createos-client.js";
import { budgetWithin, hostBound, hostCallLimitMs } from "../plugin/host-limits.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { createOwnedSandbox } from "./create-owned-sandbox.js";
import { type EndOperation, endSandbox, rollBackAcquire } from "./end-sandbox.js";
import { buildLeaseMetadata, MARKER_PATH, RUNTIME_DIR } from "./lease-metadata.js";
import { type ResolvedLease, resolveLease } from "./resolve-lease.js";
import { putFile, runStep, type SandboxSpec, transitionSandbox, waitForStatus } from "./sandbox-api.js";

/**
 * Creates a sandbox, waits for it to run, prepares the workspace and writes a random
 * marker. A failure after creation deletes the sandbox again; a failed delete is reported.
 * The whole acquire ends a margin before the host stops waiting for it (the host's RPC
 * deadline, `max(timeoutMs, bridgeRequestTimeoutMs) + 30 s` of the config it sends, or 30 s
 * without either): past that, a sandbox would be returned to no one, so it is deleted and
 * `ERR_CREATEOS_HOST_DEADLINE` thrown. The create itself is not cut by that deadline (CreateOS
 * may have made the sandbox already): a create that answers late is rolled back the same way.
 * A lease that must end by itself (`requestedExpiresAt`) is refused before any request:
 * CreateOS has no provider-side expiry to guarantee it.
 */
export async function acquireLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentAcquireLeaseParams,
): Promise<PluginEnvironmentLease> {
  if (params.requestedExpiresAt) {
    throw new CreateosError(
      "ERR_CREATEOS_EXPIRY_UNSUPPORTED",
      "CreateOS does not yet support leases with a guaranteed expiration deadline.",
      { details: { requestedExpiresAt: String(params.requestedExpiresAt).slice(0, 64) } },
    );
  }
  const config = runtime.config(params.config);
  const client = runtime.client(config);
  const spec = runtime.spec(config);
  const limits = runtime.hostLimits;
  const bound = hostBound(
    runtime.signal,
    "acquire",
    budgetWithin(hostCallLimitMs(params.config, limits), limits),
  );
  try {
    return await acquireWithin(runtime, params, client, spec, bound.signal, config.lifecycleTimeoutMs);
  } finally {
    bound.dispose();
  }
}

async function acquireWithin(
  runtime: PluginRuntime,
  params: PluginEnvironmentAcquireLeaseParams,
  client: CreateosClient,
  spec: SandboxSpec,
  signal: AbortSignal,
  lifecycleTimeoutMs: number,
): Promise<PluginEnvironmentLease> {
  const deadline = Date.now() + lifecycleTimeoutMs;
  // Not cut by the host's deadline (see `createOwnedSandbox`): an answer that comes after the
  // deadline (or once shutdown has begun) goes straight to the rollback.
  const sandboxId = await createOwnedSandbox(runtime, client, spec);
  try {
    signal.throwIfAborted();
    await waitForStatus(client, sandboxId, "running", deadline, signal);
    await runStep(client, sandboxId, "prepare workspace", "/bin/mkdir", ["-p", RUNTIME_DIR], signal);
    const marker = randomBytes(32).toString("hex");
    await putFile(client, sandboxId, MARKER_PATH, marker, signal);
    const metadata = buildLeaseMetadata(
      sandboxId,
      { companyId: params.companyId, environmentId: params.environmentId, apiOrigin: client.origin },
      spec,
      marker,
    );
    runtime.leases.hold({ sandboxId, client, lifecycleTimeoutMs });
    return { providerLeaseId: sandboxId, metadata: { ...metadata }, expiresAt: null };
  } catch (error) {
    return rollBackAcquire(runtime, client, sandboxId, error);
  }
}

/** A lease a release or destroy is ending; `done` when that has finished (see `LeaseRegistry.ending`). */
interface EndingLease extends ResolvedLease {
  readonly done: () => void;
}

/**
 * The lease being ended, marked so that shutdown leaves its sandbox to this release or
 * destroy; undefined for a lease the host never got an id for, which has nothing to end.
 */
function resolveEnding(
  runtime: PluginRuntime,
  params: PluginEnvironmentReleaseLeaseParams | PluginEnvironmentDestroyLeaseParams,
): EndingLease | undefined {
  if (params.providerLeaseId === null) return undefined;
  const lease = resolveLease(runtime, params, {
    providerLeaseId: params.providerLeaseId,
    metadata: params.leaseMetadata,
  });
  return { ...lease, done: runtime.leases.ending(lease.metadata.sandboxId) };
}

/** Stops the lease's active commands (cancelled with `reason`) and waits for their cleanup. */
async function stopCommands(runtime: PluginRuntime, lease: ResolvedLease, reason: string): Promise<void> {
  await runtime.leases.stop(
    lease.metadata.sandboxId,
    new CreateosError("ERR_CREATEOS_CANCELLED", "CreateOS command was cancelled.", { details: { reason } }),
  );
}

/** The end of a lease: its sandbox deleted and its id no longer tracked (nor blocked). */
async function deleteLeaseSandbox(
  runtime: PluginRuntime,
  client: CreateosClient,
  sandboxId: string,
  deadline: number,
  operation: EndOperation,
): Promise<PluginEnvironmentTerminationReceipt> {
  await endSandbox(runtime, client, sandboxId, deadline, operation);
  return { providerLeaseId: sandboxId, state: "destroyed" };
}

/**
 * Whether the host will ever resume this lease: it stores a reuse scope
 * (`reusableSandboxLease`) in the lease's metadata only for a `reuse_by_environment` lease of
 * a run with both an execution workspace and an agent, and it resumes no other lease. A paused
 * sandbox of any other lease would never run again, nor be deleted.
 */
export function hostWillResume(leaseMetadata: Record<string, unknown> | undefined): boolean {
  const scope = leaseMetadata?.reusableSandboxLease;
  return typeof scope === "object" && scope !== null && !Array.isArray(scope);
}

/**
 * Stops the lease's active commands and waits for their cleanup, then pauses it (when
 * `reuseLease` is on, the host made the lease reusable and it is not blocked) or deletes it.
 * The host's `archiveOnRelease` (set on probe and test leases) does not keep the sandbox:
 * CreateOS has no provider-side expiry, so a sandbox kept for inspection would never be reaped.
 */
export async function releaseLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentReleaseLeaseParams,
): Promise<PluginEnvironmentTerminationReceipt | undefined> {
  const lease = resolveEnding(runtime, params);
  if (lease === undefined) return undefined;
  try {
    return await releaseResolved(runtime, params, lease);
  } finally {
    lease.done();
  }
}

async function releaseResolved(
  runtime: PluginRuntime,
  params: PluginEnvironmentReleaseLeaseParams,
  lease: EndingLease,
): Promise<PluginEnvironmentTerminationReceipt> {
  await stopCommands(runtime, lease, "lease released");
  const { config, client, metadata } = lease;
  const sandboxId = metadata.sandboxId;
  const deadline = runtime.cleanupDeadline(config.lifecycleTimeoutMs);
  if (config.reuseLease && hostWillResume(params.leaseMetadata) && !runtime.leases.isBlocked(sandboxId)) {
    try {
      await transitionSandbox(
        client,
        sandboxId,
        "pause",
        deadline,
        AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      );
      runtime.leases.letGo(sandboxId);
      return { providerLeaseId: sandboxId, state: "stopped" };
    } catch {
      // A sandbox that will not pause must not be left running: delete it instead.
    }
  }
  return deleteLeaseSandbox(runtime, client, sandboxId, deadline, "release");
}

/**
 * The scope a destroy is checked against. The host's cleanup sweep (`retryPendingSandboxTeardown`
 * in `environment-runtime.js`) sends an empty environment id once the lease's environment has
 * been deleted (the lease row's id is set null; to the host it is "only context"): the
 * environment the lease record names stands in for it, company and API origin still checked.
 */
function destroyScope(params: PluginEnvironmentDestroyLeaseParams): PluginEnvironmentDestroyLeaseParams {
  if (params.environmentId !== "") return params;
  const recorded = params.leaseMetadata?.environmentId;
  return typeof recorded === "string" && recorded !== "" ? { ...params, environmentId: recorded } : params;
}

/** Force-destroys the lease's sandbox (every process in it dies) and unblocks the lease id. */
export async function destroyLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentDestroyLeaseParams,
): Promise<PluginEnvironmentTerminationReceipt | undefined> {
  const lease = resolveEnding(runtime, destroyScope(params));
  if (lease === undefined) return undefined;
  try {
    await stopCommands(runtime, lease, "lease destroyed");
    return await deleteLeaseSandbox(
      runtime,
      lease.client,
      lease.metadata.sandboxId,
      runtime.cleanupDeadline(lease.config.lifecycleTimeoutMs),
      "destroy",
    );
  } finally {
    lease.done();
  }
}
