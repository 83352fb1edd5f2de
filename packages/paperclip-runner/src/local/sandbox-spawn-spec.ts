import type { HarnessSpawnSpec } from "../harness/harness-spawn-spec.js";

export interface SandboxRequest {
  readonly executable: string;
  readonly args: readonly string[];
  readonly workspace: string;
  readonly allow: readonly string[];
  /** Paths outside the workspace the harness must read (its own code). */
  readonly readPaths: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly label: string;
}

/**
 * Wraps the harness in the adapter-utils bubblewrap sandbox: the workspace is the
 * only writable place, and the network is denied or limited to `--sandbox-allow`
 * hosts through the sandbox's proxy. The sandbox's env changes (proxy variables,
 * `undefined` meaning "remove", loader variables among them) are applied over the harness's minimal env, and
 * its `cleanup` (the proxy) runs once the harness is gone.
 */
export async function sandboxSpawnSpec(request: SandboxRequest): Promise<HarnessSpawnSpec> {
  // Loaded on first use: a run without --sandbox-workspace never depends on the sandbox module.
  const { buildLocalProcessSandboxSpawnTarget } = await import(
    "@paperclipai/adapter-utils/local-process-sandbox"
  );
  const target = await buildLocalProcessSandboxSpawnTarget({
    executable: request.executable,
    args: [...request.args],
    cwd: request.workspace,
    options: {
      workspaceDir: request.workspace,
      filesystemScope: "workspace",
      extraPaths: request.readPaths.map((path) => ({ path, access: "ro" as const })),
      networkScope: request.allow.length > 0 ? "allowlist" : "deny",
      networkAllowlist: [...request.allow],
    },
    // The env the harness is spawned with: its loader variables (LD_*) then reach the harness
    // through bwrap's argv, never bwrap itself on the host, and bwrap is the host's, not the
    // one the harness's PATH names first.
    env: request.env,
    // The daemon holds a loader variable named in PAPERCLIP_RUNNER_HARNESS_ENV only to hand it
    // to the harness: trusting the daemon's env as the host's would leave it in bwrap's env.
    hostEnv: {},
  });
  const env: Record<string, string | undefined> = { ...request.env, ...target.env };
  return {
    command: target.command,
    args: target.args,
    cwd: target.cwd,
    env,
    ...(target.cleanup === undefined ? {} : { cleanup: target.cleanup }),
    label: request.label,
    sandboxed: true,
  };
}
