import type {
  PluginEnvironmentRealizeWorkspaceParams,
  PluginEnvironmentRealizeWorkspaceResult,
} from "@paperclipai/plugin-sdk";
import { verifyLeaseBinding, WORKSPACE_PATH } from "../lease/lease-metadata.js";
import { runStep } from "../lease/sandbox-api.js";
import type { PluginRuntime } from "./plugin-runtime.js";

/** The run's workspace is always `/paperclip-workspace` inside the sandbox. */
export async function realizeWorkspace(
  runtime: PluginRuntime,
  params: PluginEnvironmentRealizeWorkspaceParams,
): Promise<PluginEnvironmentRealizeWorkspaceResult> {
  const config = runtime.config(params.config);
  const client = runtime.client(config);
  const metadata = verifyLeaseBinding(params.lease.providerLeaseId, params.lease.metadata, {
    companyId: params.companyId,
    environmentId: params.environmentId,
    apiOrigin: client.origin,
  });
  runtime.leases.assertUsable(metadata.sandboxId);
  await runStep(
    client,
    metadata.sandboxId,
    "prepare workspace",
    "/bin/mkdir",
    ["-p", WORKSPACE_PATH],
    runtime.signal,
  );
  return { cwd: WORKSPACE_PATH, metadata: { provider: "createos", sandboxId: metadata.sandboxId } };
}
