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
 * `undefined` meaning "remove") are applied over the harness's minimal env, and
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
