import path from "node:path";
import type { BridgeChoice } from "../bridge/bridge-choice.js";
import { bridgeCommand } from "../bridge/bridge-launch.js";
import { INIT_PROC_DIR } from "../bwrap/init-process-mask.js";
import type { SandboxNetworkProxy } from "../proxy/index.js";
import { sandboxFilterBytes } from "../seccomp/sandbox-filter.js";
import { PROXY_SOCKET_NAME } from "../temp-dir/temp-dir-candidates.js";
import { newCourierToken } from "./courier-token.js";

/** Tells the native bridge a courier serves its run, and its token (native/bridge.h); removed before the program starts. */
const COURIER_ENV = "PAPERCLIP_SANDBOX_COURIER";
/**
 * Carries the seccomp filter, hex-encoded, to the native bridge (native/own-filter.c) or the exec
 * shim (native/exec-shim/exec-shim.c), which loads it before the program, over any filter a
 * caller's own runtime holds it under: a caller that spawns this argv itself gets the filter too.
 * The spawn helper, whose bwrap `--seccomp` loads it, takes it out (`withoutOwnFilterEnv`).
 */
export const SECCOMP_ENV = "PAPERCLIP_SANDBOX_SECCOMP";

/** The filter in hex, encoded once per process: `sandboxFilterBytes` is fixed for this arch. */
let filterHex: string | null | undefined;

/** bwrap arguments that hand the native binary the program's filter, when there is one for this arch. */
function ownFilterArgs(): string[] {
  filterHex ??= sandboxFilterBytes()?.toString("hex") ?? null;
  return filterHex ? ["--setenv", SECCOMP_ENV, filterHex] : [];
}

/** What runs after bwrap's `--`, and the bwrap options it needs before that. */
export interface ProgramLaunch {
  readonly command: string;
  readonly args: string[];
  readonly bwrapArgs: string[];
  /** Set when the bridge must reach a courier: what it prints if it cannot (courier-token.ts). */
  readonly courierToken: string | null;
}

/**
 * The allowlist's start: the bridge, then the program. Upstream's argv names
 * `<proxydir>/proxy.sock`, where the sandbox sees the private directory. The proxy,
 * started earlier, is awaited last.
 */
export async function bridgeLaunch(
  bridge: BridgeChoice,
  dirs: { runDir: string; socketDir: string },
  proxyStarting: Promise<SandboxNetworkProxy>,
  program: { executable: string; args: readonly string[] },
): Promise<ProgramLaunch> {
  const socketPath = path.join(dirs.runDir, PROXY_SOCKET_NAME);
  const launch = await bridgeCommand(bridge, {
    writeDir: dirs.socketDir,
    sandboxDir: dirs.runDir,
    socketPath,
  });
  const proxy = await proxyStarting;
  const bwrapArgs = [...launch.mounts];
  // The native bridge must reach its courier, else it fails closed instead of running without.
  const courierToken = proxy.handoff ? newCourierToken() : null;
  if (courierToken) bwrapArgs.push("--setenv", COURIER_ENV, courierToken);
  if (bridge.kind === "native") bwrapArgs.push(...ownFilterArgs());
  return {
    command: launch.command,
    args: [...launch.args, program.executable, ...program.args],
    bwrapArgs,
    courierToken,
  };
}

/**
 * The start without a bridge: through the exec shim (`shim`, its private copy:
 * native/exec-shim/, no libc, so its start costs little more than its execve), which
 * loads the program's filter, closes every descriptor above stdio and becomes the
 * program. The scope shows the shim's own directory, which holds nothing else, as its
 * read-only `/proc/1` mask (`scopeArgs`' `initMask`), so the shim needs no bind of its
 * own. Without one (no usable native binary here, or a launcher that needs none) the
 * program starts directly, as upstream's does.
 */
export function shimLaunch(
  program: { executable: string; args: readonly string[] },
  shim: string | null,
): ProgramLaunch {
  if (!shim)
    return { command: program.executable, args: [...program.args], bwrapArgs: [], courierToken: null };
  return {
    command: path.join(INIT_PROC_DIR, path.basename(shim)),
    args: [program.executable, ...program.args],
    bwrapArgs: ownFilterArgs(),
    courierToken: null,
  };
}
