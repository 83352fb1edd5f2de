import { randomBytes } from "node:crypto";
import { CreateosError } from "@paperclipai/errors";
import type {
  PluginEnvironmentAcquireLeaseParams,
  PluginEnvironmentDestroyLeaseParams,
  PluginEnvironmentLease,
  PluginEnvironmentReleaseLeaseParams,
  PluginEnvironmentResumeLeaseParams,
  PluginEnvironmentTerminationReceipt,
} from "@paperclipai/plugin-sdk";
import type { CreateosClient } from "../client/createos-client.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { type EndOperation, endSandbox, rollBackAcquire } from "./end-sandbox.js";
import {
  buildLeaseMetadata,
  type LeaseMetadata,
  MARKER_PATH,
  verifyLeaseSpec,
  WORKSPACE_PATH,
} from "./lease-metadata.js";
import { resolveLease } from "./resolve-lease.js";
import {
  createSandbox,
  getFile,
  putFile,
  readSandboxStatus,
  runStep,
  transitionSandbox,
  waitForStatus,
} from "./sandbox-api.js";

function toLease(metadata: LeaseMetadata): PluginEnvironmentLease {
  return { providerLeaseId: metadata.sandboxId, metadata: { ...metadata }, expiresAt: null };
}

/**
 * Creates a sandbox, waits for it to run, prepares the workspace and writes a random
 * marker. A failure after creation deletes the sandbox again; a failed delete is reported.
 */
export async function acquireLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentAcquireLeaseParams,
): Promise<PluginEnvironmentLease> {
  const config = runtime.config(params.config);
  const client = runtime.client(config);
  const spec = runtime.spec(config);
  const signal = runtime.signal;
  const deadline = Date.now() + config.lifecycleTimeoutMs;
  const sandboxId = await createSandbox(client, spec, signal);
  try {
    await waitForStatus(client, sandboxId, "running", deadline, signal);
    await runStep(client, sandboxId, "prepare workspace", "/bin/mkdir", ["-p", WORKSPACE_PATH], signal);
    const marker = randomBytes(32).toString("hex");
    await putFile(client, sandboxId, MARKER_PATH, Buffer.from(marker), signal);
    const metadata = buildLeaseMetadata(
      sandboxId,
      { companyId: params.companyId, environmentId: params.environmentId, apiOrigin: client.origin },
      spec,
      marker,
    );
    return toLease(metadata);
  } catch (error) {
    return rollBackAcquire(runtime, client, sandboxId, error);
  }
}

/**
 * Reconnects to a lease: checks its binding and settings, resumes a paused sandbox (never
 * deletes), and trusts it only when the workspace marker matches.
 */
export async function resumeLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentResumeLeaseParams,
): Promise<PluginEnvironmentLease> {
  const { config, client, metadata } = resolveLease(runtime, params, {
    providerLeaseId: params.providerLeaseId,
    metadata: params.leaseMetadata,
  });
  verifyLeaseSpec(metadata, runtime.spec(config));
  runtime.leases.assertUsable(metadata.sandboxId);
  const signal = runtime.signal;
  const deadline = Date.now() + config.lifecycleTimeoutMs;
  const status = await readSandboxStatus(client, metadata.sandboxId, signal);
  if (status === "paused" || status === "pausing") {
    if (status === "pausing")
      await waitForStatus(client, metadata.sandboxId, "paused", deadline, signal, "running");
    await transitionSandbox(client, metadata.sandboxId, "resume", deadline, signal);
  } else {
    await waitForStatus(client, metadata.sandboxId, "running", deadline, signal);
  }
  const marker = await getFile(client, metadata.sandboxId, MARKER_PATH, signal);
  if (marker === null || marker.toString("utf8") !== metadata.marker) {
    throw new CreateosError(
      "ERR_CREATEOS_LEASE_MARKER",
      "CreateOS workspace marker does not match the lease; the sandbox cannot be trusted.",
      { details: { sandboxId: metadata.sandboxId } },
    );
  }
  return toLease(metadata);
}

function released(reason: string): CreateosError {
  return new CreateosError("ERR_CREATEOS_CANCELLED", "CreateOS command was cancelled.", {
    details: { reason },
  });
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
 * Stops the lease's active commands and waits for their cleanup, then pauses it (when
 * `reuseLease` is on and the lease is not blocked) or deletes it. The host's
 * `archiveOnRelease` (set on probe and test leases) does not keep the sandbox: CreateOS has no
 * provider-side expiry, so a sandbox kept for inspection would never be reaped.
 */
export async function releaseLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentReleaseLeaseParams,
): Promise<PluginEnvironmentTerminationReceipt | undefined> {
  if (params.providerLeaseId === null) return undefined;
  const { config, client, metadata } = resolveLease(runtime, params, {
    providerLeaseId: params.providerLeaseId,
    metadata: params.leaseMetadata,
  });
  const sandboxId = metadata.sandboxId;
  await runtime.leases.stop(sandboxId, released("lease released"));
  const deadline = Date.now() + config.lifecycleTimeoutMs;
  if (config.reuseLease && !runtime.leases.isBlocked(sandboxId)) {
    try {
      await transitionSandbox(
        client,
        sandboxId,
        "pause",
        deadline,
        AbortSignal.timeout(config.lifecycleTimeoutMs),
      );
      return { providerLeaseId: sandboxId, state: "stopped" };
    } catch {
      // A sandbox that will not pause must not be left running: delete it instead.
    }
  }
  return deleteLeaseSandbox(runtime, client, sandboxId, deadline, "release");
}

/** Force-destroys the lease's sandbox (every process in it dies) and unblocks the lease id. */
export async function destroyLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentDestroyLeaseParams,
): Promise<PluginEnvironmentTerminationReceipt | undefined> {
  if (params.providerLeaseId === null) return undefined;
  const { config, client, metadata } = resolveLease(runtime, params, {
    providerLeaseId: params.providerLeaseId,
    metadata: params.leaseMetadata,
  });
  await runtime.leases.stop(metadata.sandboxId, released("lease destroyed"));
  return deleteLeaseSandbox(
    runtime,
    client,
    metadata.sandboxId,
    Date.now() + config.lifecycleTimeoutMs,
    "destroy",
  );
}
