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

interface SandboxTarget {
  readonly command: string;
  readonly args: string[];
  readonly cwd: string;
  readonly env?: Record<string, string | undefined>;
  readonly cleanup?: () => Promise<void>;
}

type BuildTarget = (input: {
  executable: string;
  args: string[];
  cwd: string;
  options: Record<string, unknown>;
}) => Promise<SandboxTarget>;

const ADAPTER_UTILS = "@paperclipai/adapter-utils";

/**
 * The sandbox entry point of the installed adapter-utils, when it has one. Loaded
 * on first use only: a run without `--sandbox-workspace` never depends on it.
 */
export async function sandboxBuilder(): Promise<BuildTarget | null> {
  let adapterUtils: Record<string, unknown>;
  try {
    adapterUtils = (await import(ADAPTER_UTILS)) as Record<string, unknown>;
  } catch {
    return null;
  }
  const build = adapterUtils.buildLocalProcessSandboxSpawnTarget;
  return typeof build === "function" ? (build as BuildTarget) : null;
}

/**
 * Wraps the harness in the adapter-utils bubblewrap sandbox: the workspace is the
 * only writable place, and the network is denied or limited to `--sandbox-allow`
 * hosts through the sandbox's proxy. The sandbox's env changes (proxy variables)
 * are applied over the harness's minimal env.
 */
export async function sandboxSpawnSpec(request: SandboxRequest): Promise<HarnessSpawnSpec> {
  const build = await sandboxBuilder();
  if (build === null) throw new Error("the adapter-utils sandbox is not available");
  const target = await build({
    executable: request.executable,
    args: [...request.args],
    cwd: request.workspace,
    options: {
      workspaceDir: request.workspace,
      filesystemScope: "workspace",
      extraPaths: request.readPaths.map((path) => ({ path, access: "ro" })),
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
