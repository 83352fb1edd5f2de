import type { PluginEnvironmentDriverBaseParams } from "@paperclipai/plugin-sdk";
import type { CreateosClient } from "../client/createos-client.js";
import type { CreateosConfig } from "../plugin/plugin-config.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { type LeaseMetadata, type LeaseUse, verifyLeaseBinding } from "./lease-metadata.js";

/** The lease as the host hands it back: its id and the metadata stored at acquire. */
export interface LeaseReference {
  readonly providerLeaseId: string | null;
  readonly metadata?: Record<string, unknown> | undefined;
}

export interface ResolvedLease {
  readonly config: CreateosConfig;
  readonly client: CreateosClient;
  readonly metadata: LeaseMetadata;
}

/**
 * The hook's config and client, and the lease checked against this company, environment and
 * the client's API origin, so a lease is only ever used against the account it was made in.
 */
export function resolveLease(
  runtime: PluginRuntime,
  params: PluginEnvironmentDriverBaseParams,
  lease: LeaseReference,
  use: LeaseUse = "lifecycle",
): ResolvedLease {
  const config = runtime.config(params.config);
  const client = runtime.client(config);
  const metadata = verifyLeaseBinding(
    lease.providerLeaseId,
    lease.metadata,
    {
      companyId: params.companyId,
      environmentId: params.environmentId,
      apiOrigin: client.origin,
    },
    use,
  );
  return { config, client, metadata };
}
