import { CreateosApiError } from "@paperclipai/errors";
import type {
  PluginEnvironmentSyncInParams,
  PluginEnvironmentSyncOutParams,
  PluginEnvironmentSyncResult,
  PluginSyncOperation,
} from "@paperclipai/plugin-sdk";
import type { CreateosClient } from "../client/createos-client.js";
import { resolveLease } from "../lease/resolve-lease.js";
import { runStep, type ShortCommandResult } from "../lease/sandbox-api.js";
import { budgetWithin, hostBound, hostCallLimitMs } from "../plugin/host-limits.js";
import type { CreateosConfig } from "../plugin/plugin-config.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";

/** The lease a sync runs against, checked once per hook call. */
export interface SyncScope {
  readonly runtime: PluginRuntime;
  readonly config: CreateosConfig;
  readonly client: CreateosClient;
  readonly sandboxId: string;
  readonly signal: AbortSignal;
}

/** Files and bytes one operation moved. */
export interface Transfer {
  files: number;
  bytes: number;
}

export function modeText(mode: number | undefined): string {
  return mode === undefined ? "" : (mode & 0o7777).toString(8);
}

/**
 * Runs a sync hook on its lease, within the host's limit for the call (`hostCallLimitMs`, less
 * the margin): the host abandons it then without a cancel, so nothing of it (a transfer, a
 * post-upload command) runs on past that; it ends with `ERR_CREATEOS_HOST_DEADLINE`.
 */
export async function withinSyncScope<T>(
  runtime: PluginRuntime,
  params: PluginEnvironmentSyncInParams | PluginEnvironmentSyncOutParams,
  hook: "sync in" | "sync out",
  work: (scope: SyncScope) => Promise<T>,
): Promise<T> {
  const { config, client, metadata } = resolveLease(runtime, params, params.lease, "execution");
  runtime.leases.assertUsable(metadata.sandboxId);
  const limits = runtime.hostLimits;
  const bound = hostBound(runtime.signal, hook, budgetWithin(hostCallLimitMs(params.config, limits), limits));
  try {
    return await work({ runtime, config, client, sandboxId: metadata.sandboxId, signal: bound.signal });
  } catch (error) {
    if (bound.expired()) throw bound.signal.reason;
    throw error;
  } finally {
    bound.dispose();
  }
}

export function syncStep(
  scope: SyncScope,
  step: string,
  cmd: string,
  args: readonly string[],
): Promise<ShortCommandResult> {
  return runStep(scope.client, scope.sandboxId, step, cmd, args, scope.signal);
}

/** Runs the operations one after another, each with its own count of files and bytes moved. */
export async function transferEach(
  operations: readonly PluginSyncOperation[],
  transferOne: (operation: PluginSyncOperation, transfer: Transfer) => Promise<void>,
): Promise<PluginEnvironmentSyncResult> {
  const results: PluginEnvironmentSyncResult["operations"] = [];
  for (const operation of operations) {
    const transfer: Transfer = { files: 0, bytes: 0 };
    await transferOne(operation, transfer);
    results.push({
      operationId: operation.operationId,
      filesTransferred: transfer.files,
      bytesTransferred: transfer.bytes,
    });
  }
  return { operations: results };
}

/** A sandbox file to download that does not exist, reported as the API's 404. */
export function missingSource(): CreateosApiError {
  return new CreateosApiError(
    "ERR_CREATEOS_HTTP_STATUS",
    "CreateOS request failed (HTTP 404) during file transfer.",
    {
      status: 404,
      operation: "file transfer",
    },
  );
}
