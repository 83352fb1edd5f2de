import type { SandboxBridgePreference } from "./bridge/bridge-choice.js";
import type { NetworkDecision, SandboxNetworkProxyLimits } from "./proxy/index.js";

export type LocalProcessSandboxAccess = "ro" | "rw";
export type LocalProcessNetworkScope = "deny" | "allowlist";
export type LocalProcessFilesystemScope = "workspace";

export interface LocalProcessSandboxPath {
  path: string;
  access: LocalProcessSandboxAccess;
}

export interface LocalProcessSandboxPathAlias {
  path: string;
  target: string;
}

export interface LocalProcessSandboxOptions {
  workspaceDir: string;
  filesystemScope?: LocalProcessFilesystemScope | null;
  /** Access to the workspace itself under the workspace scope; default `"rw"`. */
  filesystemWorkspaceAccess?: LocalProcessSandboxAccess | null;
  managedPaths?: LocalProcessSandboxPath[];
  extraPaths?: LocalProcessSandboxPath[];
  pathAliases?: LocalProcessSandboxPathAlias[];
  outboundRestorePaths?: string[];
  homeDir?: string | null;
  networkScope?: LocalProcessNetworkScope | null;
  networkAllowlist?: string[];
  networkTrustedUrls?: string[];
  /** The bwrap executable; default `"bwrap"`. */
  command?: string;
  /** Audit hook: one call per network attempt through the allowlist proxy (never headers or bodies). */
  onNetworkDecision?: ((decision: NetworkDecision) => void) | undefined;
  /** Connection, header-size and idle limits of the allowlist proxy. */
  networkLimits?: SandboxNetworkProxyLimits | undefined;
  /**
   * The allowlist scope's in-sandbox bridge: `"auto"` (default) the native binary
   * built with the package when it runs here, else the Node bridge; `"native"` or
   * `"node"` to insist. Unset, the `PAPERCLIP_SANDBOX_BRIDGE` env variable decides.
   */
  networkBridge?: SandboxBridgePreference | undefined;
  /**
   * Base directories tried, in order, for the per-run directory (the proxy socket
   * directory of the allowlist scope, the private `/tmp` and masks of the network-only
   * deny scope). Default: `/tmp`, `os.tmpdir()`, `$XDG_RUNTIME_DIR`.
   */
  proxySocketDirCandidates?: readonly string[] | undefined;
  /**
   * Processes and threads the run may have at once (cgroup `pids.max`; default 4096).
   * Applied by the spawn helper where it can create a cgroup with the pids controller
   * (root, or a delegated cgroup v2), which also lets it kill the run whole.
   */
  maxProcesses?: number | undefined;
  /**
   * Caps each writable tmpfs of the sandbox, in bytes (bwrap `--size`, bwrap 0.8.0 or
   * later): the workspace scope's root and `/tmp`; in the network-only scope the private
   * `/tmp`, `/run`, `/var/run` and `$XDG_RUNTIME_DIR` then become tmpfs of that size
   * instead of directories of the run's directory. They are memory: unset (as upstream),
   * a program can fill them until the host runs out. A whole number from 4096 up, else
   * `ERR_SANDBOX_TMPFS_SIZE`.
   */
  tmpfsSizeBytes?: number | null | undefined;
}

export interface LocalProcessSandboxSpawnTarget {
  command: string;
  args: string[];
  cwd: string;
  /** Variables to set; a key with an `undefined` value means "delete it". */
  env?: Record<string, string | undefined>;
  /** Stops the proxy and removes the per-run directory; always call it once the process is gone. */
  cleanup?: () => Promise<void>;
}

export interface LocalProcessSandboxSpawnInput {
  executable: string;
  args: string[];
  cwd: string;
  options: LocalProcessSandboxOptions;
  /**
   * The environment the caller spawns the target with (new in this package). Its loader
   * variables (`LD_*`, `GLIBC_TUNABLES` and the rest of glibc's unsecure list) then reach
   * the program through bwrap's argv (`--setenv`) and the target's `env` deletes them for
   * bwrap's own process, which runs on the host, and `command` is bwrap resolved on this
   * process's PATH (absolute), not on the env's. Without it, the target's `env` deletes
   * the `LD_*` names glibc reads and `GLIBC_TUNABLES`, the program does not get them, and
   * `command` is upstream's bare name. A loader variable whose value is the host's own
   * (`hostEnv`) stays in bwrap's env instead; given `env`, a bwrap not found on this
   * process's PATH throws `ERR_SANDBOX_BWRAP_NOT_FOUND`.
   */
  env?: Record<string, string | undefined>;
  /**
   * The host's env (new in this package; default `process.env`): a loader variable of
   * `env` with the same value here is the host's own, trusted, and stays in bwrap's env
   * (bwrap may need an operator's `LD_LIBRARY_PATH`). `{}` trusts none: every loader
   * variable of `env` then reaches the program through argv only (a caller that copies
   * its own loader variables into `env` for the program alone, as the Paperclip runner does).
   */
  hostEnv?: Readonly<Record<string, string | undefined>>;
}
