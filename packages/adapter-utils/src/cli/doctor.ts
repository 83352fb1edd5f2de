import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PaperclipError, SandboxError } from "@paperclipai/errors";
import { type BridgeChoice, SANDBOX_BRIDGE_ENV } from "../bridge/bridge-choice.js";
import { selectBridge } from "../bridge/bridge-launch.js";
import { SANDBOX_PROXY_PORT } from "../bwrap/system-paths.js";
import { HANDOFF_SOCKET_NAME } from "../handoff/handoff-wire.js";
import { startTunnelCourier } from "../handoff/tunnel-courier.js";
import { DEFAULT_PROXY_LIMITS } from "../proxy/limits.js";
import { bwrapNotFound } from "../spawn/bwrap-not-found.js";
import { bwrapSupportsJsonStatus } from "../spawn/bwrap-status.js";
import { bwrapVersion } from "../spawn/bwrap-version.js";
import { resolveBwrapPath } from "../spawn/resolve-command-path.js";
import { createPrivateSocketDir } from "../temp-dir/create-private-socket-dir.js";
import { UNIX_SOCKET_PATH_MAX_BYTES } from "../temp-dir/socket-path-length.js";
import {
  defaultProxyTempDirCandidates,
  NETWORK_PROXY_TEMP_PREFIX,
  socketPathBytesUnder,
} from "../temp-dir/temp-dir-candidates.js";
import type { DoctorCheck } from "./doctor-check.js";
import { failedProbe, runDoctorProbe } from "./doctor-probe.js";
import { checkRunLimits, checkSeccompFilter } from "./doctor-process-boundary.js";
import { checkRootRunner } from "./doctor-root-runner.js";
import { checkPrivateSocketRoot } from "./doctor-socket-root.js";
import { checkUserNamespaces } from "./doctor-user-namespaces.js";

export type { CheckStatus, DoctorCheck } from "./doctor-check.js";

async function checkBwrap(): Promise<{ check: DoctorCheck; bwrap: string | null }> {
  // The lookup runs use: the host's PATH, absolute entries only.
  const bwrap = resolveBwrapPath("bwrap", process.cwd());
  if (!bwrap) {
    const error = bwrapNotFound("bwrap");
    return {
      check: { name: "bwrap", status: "fail", detail: "not found on the host's PATH", error },
      bwrap: null,
    };
  }
  const version = (await bwrapVersion(bwrap)) ?? "unknown version";
  const statusFd = bwrapSupportsJsonStatus(version);
  return {
    bwrap,
    check: {
      name: "bwrap",
      status: statusFd ? "ok" : "warn",
      detail: statusFd
        ? `${bwrap} (${version}; --json-status-fd supported)`
        : `${bwrap} (${version}): older than 0.5, setup failures cannot be told from program failures; upgrade bubblewrap`,
    },
  };
}

async function checkCandidate(baseDir: string): Promise<DoctorCheck> {
  const bytes = socketPathBytesUnder(baseDir);
  const name = `socket dir ${baseDir}`;
  let probe: string | null = null;
  try {
    probe = await mkdtemp(path.join(baseDir, NETWORK_PROXY_TEMP_PREFIX));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "UNKNOWN";
    return {
      name,
      status: "warn",
      detail: `not usable: mkdtemp failed with ${code}; proxy.sock path would be ${bytes} bytes`,
    };
  } finally {
    if (probe) await rm(probe, { recursive: true, force: true });
  }
  if (bytes > UNIX_SOCKET_PATH_MAX_BYTES) {
    return {
      name,
      status: "warn",
      detail: `writable, but proxy.sock path would be ${bytes} bytes (limit ${UNIX_SOCKET_PATH_MAX_BYTES})`,
    };
  }
  return {
    name,
    status: "ok",
    detail: `writable; proxy.sock path ${bytes} bytes (limit ${UNIX_SOCKET_PATH_MAX_BYTES})`,
  };
}

async function checkStart(
  name: string,
  bwrap: string,
  allowlist: boolean,
  baseDir: string,
): Promise<DoctorCheck> {
  // Exit 4 when the program still holds a capability (a root runner's bwrap would keep them all).
  const capabilityCheck =
    'if (/[1-9a-f]/.test(/CapEff:\\s*(\\w+)/.exec(require("node:fs").readFileSync("/proc/self/status", "utf8"))[1])) process.exit(4);';
  const script = allowlist
    ? `${capabilityCheck} require("node:net").connect(${SANDBOX_PROXY_PORT}, "127.0.0.1", () => process.exit(0)).on("error", () => process.exit(3));`
    : `${capabilityCheck} process.exit(0);`;
  const started = performance.now();
  try {
    const result = await runDoctorProbe(baseDir, script, {
      filesystemScope: "workspace",
      networkScope: allowlist ? "allowlist" : "deny",
      networkAllowlist: allowlist ? ["127.0.0.1:9"] : [],
      command: bwrap,
    });
    const ms = Math.round(performance.now() - started);
    if (result.exitCode === 0)
      return { name, status: "ok", detail: `started and exited 0 in ${ms} ms; no capabilities` };
    if (result.exitCode === 4)
      return { name, status: "fail", detail: "the sandboxed program kept capabilities" };
    if (result.exitCode === 3)
      return { name, status: "fail", detail: "the bridge did not accept a connection on 127.0.0.1:31337" };
    return {
      name,
      status: "fail",
      detail: `program exited ${result.exitCode ?? result.signal}: ${result.stderr.trim()}`,
    };
  } catch (error) {
    return failedProbe(name, error);
  }
}

/**
 * Whether long tunnels leave the host process: the native bridge takes a tunnel over
 * through a courier the proxy starts (src/handoff/), so the courier is started here once.
 */
async function checkTunnelHandoff(choice: BridgeChoice): Promise<DoctorCheck> {
  const name = "tunnel handoff";
  const after = `${DEFAULT_PROXY_LIMITS.handoffAfterBytes / (1024 * 1024)} MiB`;
  if (choice.kind !== "native" || !choice.nativePath) {
    return {
      name,
      status: "info",
      detail: "off: the Node bridge relays every tunnel through the host process",
    };
  }
  const dir = createPrivateSocketDir();
  try {
    const courier = await startTunnelCourier(choice.nativePath, path.join(dir, HANDOFF_SOCKET_NAME));
    if (!courier) {
      return {
        name,
        status: "warn",
        detail: `off: the courier (${choice.nativePath} --courier) did not start; the host process relays every tunnel`,
      };
    }
    await courier.close();
    return {
      name,
      status: "ok",
      detail: `on: a CONNECT tunnel goes to the native bridge after its first ${after}; the host relays only that`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Which in-sandbox bridge an allowlist run of this process would start, and why:
 * the native one is the fast path; the Node bridge works the same, with a Node
 * start (tens of ms) added to every allowlist run, and the host relaying every tunnel.
 */
async function checkBridge(): Promise<{ check: DoctorCheck; choice?: BridgeChoice }> {
  try {
    const choice = await selectBridge(undefined);
    if (choice.kind === "native")
      return { check: { name: "bridge", status: "ok", detail: `native: ${choice.reason}` }, choice };
    const asked = choice.reason.startsWith("the Node bridge was asked for");
    const check: DoctorCheck = {
      name: "bridge",
      status: asked ? "info" : "warn",
      detail: asked
        ? `Node: ${choice.reason}`
        : `Node: ${choice.reason}; every allowlist run pays a Node start (install a C compiler and rebuild the package, or unset ${SANDBOX_BRIDGE_ENV})`,
    };
    return { check, choice };
  } catch (error) {
    return {
      check: PaperclipError.is(error)
        ? { name: "bridge", status: "fail", detail: error.message, error }
        : { name: "bridge", status: "fail", detail: String(error) },
    };
  }
}

function checkNodeProxySupport(): DoctorCheck {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  const supported = major >= 24 || (major === 22 && minor >= 21);
  return {
    name: "node fetch proxy",
    status: "info",
    detail: supported
      ? `Node ${process.versions.node}: fetch() and http honour HTTP(S)_PROXY in the sandbox (NODE_USE_ENV_PROXY=1)`
      : `Node ${process.versions.node}: fetch() ignores HTTP(S)_PROXY (NODE_USE_ENV_PROXY needs 22.21+ or 24+); programs must use the proxy themselves`,
  };
}

/** Runs every check; the candidates follow `createNetworkProxyTempDir`'s order. */
export async function runDoctor(): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const { check, bwrap } = await checkBwrap();
  const userns = checkUserNamespaces();
  checks.push(check, userns);
  const rootRunner = checkRootRunner(process.geteuid?.());
  if (rootRunner) checks.push(rootRunner);
  const candidates = defaultProxyTempDirCandidates(os.tmpdir(), process.env);
  const candidateChecks = await Promise.all(candidates.map(checkCandidate));
  checks.push(...candidateChecks, await checkPrivateSocketRoot());
  if (!candidateChecks.some((entry) => entry.status === "ok")) {
    checks.push({
      name: "socket dir",
      status: "fail",
      detail: "no candidate can hold the proxy socket; the allowlist scope cannot start",
      error: new SandboxError(
        "ERR_SANDBOX_PROXY_SOCKET_DIR",
        "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
        {
          details: {
            candidates,
            attempts: candidateChecks.map((entry) => ({
              baseDir: entry.name.slice(11),
              reason: entry.detail,
            })),
          },
        },
      ),
    });
  }
  // The probe workspace goes where the proxy directory would; without one, no sandbox can start.
  const bridge = await checkBridge();
  checks.push(bridge.check);
  if (bridge.choice) checks.push(await checkTunnelHandoff(bridge.choice));
  const usable = candidates.find((_candidate, index) => candidateChecks[index]?.status === "ok");
  if (bwrap && usable) {
    const start = await checkStart("sandbox start (workspace, network deny)", bwrap, false, usable);
    checks.push(start, await checkStart("sandbox start (allowlist: bridge + proxy)", bwrap, true, usable));
    checks.push(await checkSeccompFilter(bwrap, usable), await checkRunLimits());
    // A restricted host where bwrap still starts has a profile that allows it (Ubuntu's bwrap-userns-restrict).
    if (userns.status === "fail" && start.status === "ok") {
      checks[checks.indexOf(userns)] = {
        ...userns,
        status: "warn",
        detail: `${userns.detail}; bwrap starts anyway (an AppArmor profile allows it)`,
      };
    }
  }
  checks.push(checkNodeProxySupport());
  return checks;
}
