import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readProcTable } from "@paperclipai/test-support";
import { nativeBridgePath } from "../src/bridge/native-bridge-path.js";
import { BRIDGE_SOCKET_NAME } from "../src/handoff/handoff-wire.js";
import type { SandboxNetworkProxy, SandboxNetworkProxyLimits } from "../src/proxy/index.js";
import { startProxy } from "./proxy-support.js";
import { onCleanup } from "./sandbox-support.js";

// The tunnel handoff's test machinery: the native bridge in a real bwrap sandbox with the
// in-sandbox client (fixtures/tunnel-client.cjs) as its program, and what the tests read.

/** The in-sandbox client: argv mode, target port, then the mode's arguments; one JSON line a report. */
const TUNNEL_CLIENT = fileURLToPath(new URL("./fixtures/tunnel-client.cjs", import.meta.url));

export function bridgeBinary(): string {
  const binary = nativeBridgePath();
  if (!binary || !existsSync(binary)) throw new Error(`the native bridge is not built: ${binary}`);
  return binary;
}

export interface SandboxRun {
  child: ChildProcess;
  /** Every line the client printed so far. */
  lines(): unknown[];
  /** Resolves once the client printed `count` lines. */
  linesAtLeast(count: number): Promise<unknown[]>;
  exited: Promise<number | null>;
}

/**
 * Runs the native bridge in a real bwrap sandbox of its own network namespace (so its
 * port 31337 is always free), with the client above as the program. The host's
 * filesystem is shared: the protocol, not the filesystem scope, is under test here.
 */
export function runClientInSandbox(
  proxy: SandboxNetworkProxy,
  args: string[],
  env: Record<string, string> = {},
): SandboxRun {
  const child = spawn(
    "bwrap",
    [
      "--dev-bind",
      "/",
      "/",
      "--unshare-net",
      "--unshare-pid",
      "--proc",
      "/proc",
      "--die-with-parent",
      // As the package's own argv does, bwrap's options name the run's private directory
      // (the courier checks it walks up to that bwrap): bound onto itself here.
      "--ro-bind",
      path.dirname(proxy.socketPath),
      path.dirname(proxy.socketPath),
      "--",
      bridgeBinary(),
      "127.0.0.1:31337",
      proxy.socketPath,
      process.execPath,
      TUNNEL_CLIENT,
      ...args,
    ],
    {
      env: {
        PATH: process.env.PATH ?? "",
        RELAY_SOCKET: path.join(path.dirname(proxy.socketPath), BRIDGE_SOCKET_NAME),
        // What the package's own argv sets with bwrap's --setenv when a courier serves the run.
        ...(proxy.handoff ? { PAPERCLIP_SANDBOX_COURIER: "1" } : {}),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  });
  let stdout = "";
  let stderr = "";
  const waiters: (() => void)[] = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = () =>
    stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  const linesAtLeast = async (count: number) => {
    while (lines().length < count) {
      const more = new Promise<void>((resolve) => waiters.push(resolve));
      const ended = exited.then(() => {
        throw new Error(`the client ended after ${lines().length} of ${count} lines; stderr: ${stderr}`);
      });
      await Promise.race([more, ended]);
    }
    return lines();
  };
  return { child, lines, linesAtLeast, exited };
}

export async function handoffProxy(
  allowedPort: number,
  limits: SandboxNetworkProxyLimits = {},
): Promise<SandboxNetworkProxy> {
  return startProxy({
    allowlist: [`127.0.0.1:${allowedPort}`],
    trustedUrls: [],
    handoffBridge: bridgeBinary(),
    limits,
  });
}

/**
 * Couriers of this test process that serve a proxy (a spare is named `courier-spare`
 * until a proxy takes it). The tests here run one proxy at a time.
 */
export function couriersInUse(): number[] {
  return readProcTable()
    .filter(({ pid, ppid }) => ppid === process.pid && comm(pid) === "courier-serving\n")
    .map(({ pid }) => pid);
}

function comm(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8");
  } catch {
    return undefined;
  }
}

/** What the client reports for a download of `payload` that arrived whole and in order. */
export function downloaded(payload: Buffer) {
  return {
    status: "HTTP/1.1 200",
    bytes: payload.length,
    sha256: createHash("sha256").update(payload).digest("hex"),
  };
}

/** A loopback sink: hashes what it receives until the client's FIN, answers the hash and ends. */
export async function startHashingSink(): Promise<number> {
  const server = createNetServer({ allowHalfOpen: true }, (socket) => {
    socket.on("error", () => {});
    const hash = createHash("sha256");
    socket.on("data", (chunk) => hash.update(chunk));
    socket.on("end", () => socket.end(hash.digest("hex")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}
