import type {
  PluginEnvironmentRealizeWorkspaceParams,
  PluginEnvironmentRealizeWorkspaceResult,
} from "@paperclipai/plugin-sdk";
import { WORKSPACE_PATH } from "../lease/lease-metadata.js";
import { resolveLease } from "../lease/resolve-lease.js";
import { runStep } from "../lease/sandbox-api.js";
import type { PluginRuntime } from "./plugin-runtime.js";

/** The run's workspace is always `/paperclip-workspace` inside the sandbox. */
export async function realizeWorkspace(
  runtime: PluginRuntime,
  params: PluginEnvironmentRealizeWorkspaceParams,
): Promise<PluginEnvironmentRealizeWorkspaceResult> {
  const { client, metadata } = resolveLease(runtime, params, params.lease, "workspace");
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
