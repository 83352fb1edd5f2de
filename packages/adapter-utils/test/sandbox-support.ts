import { type ChildProcess, execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { onTestFinished } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { type RunProcessResult, runChildProcess } from "../src/spawn/run-child-process.js";

export const packageDir = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
/** The built package, as a consumer imports it; child processes load it from here. */
export const builtEntry = path.join(packageDir, "dist", "local-process-sandbox.js");
export const repoRoot = path.resolve(packageDir, "../..");

/**
 * Tests that replace `/tmp` in a private mount namespace first bind the repository
 * here, so the code under test stays reachable even when the checkout lives under
 * `/tmp` (pnpm's workspace links are relative, so they resolve through the view).
 */
export const REPO_VIEW = "/mnt";
export const bindRepoView = `mount --bind ${shellQuote(repoRoot)} ${REPO_VIEW}`;

/**
 * Shell steps (for a private mount namespace) replacing the host's `/dev` with one whose `shm`
 * links to `shm`, a fresh world-writable directory under `parent` (`<parent>/fakedev` holds the
 * new `/dev`, its usual devices bound from the host's).
 */
export function devWithShmIn(parent: string): string[] {
  const dev = `${parent}/fakedev`;
  return [
    `mkdir -p ${parent}/shm ${dev} && chmod 1777 ${parent}/shm`,
    ...["null", "zero", "full", "random", "urandom", "tty"].map(
      (d) => `touch ${dev}/${d} && mount --bind /dev/${d} ${dev}/${d}`,
    ),
    `ln -s ${parent}/shm ${dev}/shm`,
    `mount --bind ${dev} /dev`,
  ];
}

/** A path inside the repository, as seen through `REPO_VIEW`. */
export function viaRepoView(file: string): string {
  return path.join(REPO_VIEW, path.relative(repoRoot, file));
}

/** What `scopesProbeScript` runs, and where. */
export interface ScopesProbe {
  /** The built package to import (through `REPO_VIEW` when the probe runs behind one). */
  entry: string;
  command: string;
  args: readonly string[];
  /** The run's cwd and `workspaceDir`. */
  workspace: string;
  /** Per name, the sandbox options spread over the workspace's (JSON: what a script can carry). */
  scopes: Readonly<Record<string, object>>;
}

/**
 * An ES module's text (for `node --input-type=module -e`) that runs one program through the
 * package's `runChildProcess` once per scope and prints one JSON object: per scope, the stdout
 * of a run that exited 0, else its stderr. For probes that must run in a host state the test's
 * own process cannot be in: a private mount namespace, another uid.
 */
export function scopesProbeScript(probe: ScopesProbe): string {
  return `
    const { runChildProcess } = await import(${JSON.stringify(probe.entry)});
    const out = {};
    for (const [name, scope] of Object.entries(${JSON.stringify(probe.scopes)})) {
      const result = await runChildProcess(name, ${JSON.stringify(probe.command)}, ${JSON.stringify(probe.args)}, {
        cwd: ${JSON.stringify(probe.workspace)}, env: {}, timeoutSec: 30, graceSec: 1, onLog: async () => {},
        localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ${JSON.stringify(probe.workspace)}, ...scope },
      });
      out[name] = result.exitCode === 0 ? result.stdout : result.stderr;
    }
    console.log(JSON.stringify(out));`;
}

const cleanups: (() => Promise<unknown>)[] = [];

export async function cleanupAll(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => {});
}

export function onCleanup(run: () => Promise<unknown>): void {
  cleanups.push(run);
}

/**
 * A scratch directory for the current test, removed when it finishes (after `cleanupAll`).
 * Under /tmp, not `os.tmpdir()`: short, so socket paths nested in it stay under 107 bytes
 * whatever `TMPDIR` the suite runs with.
 */
export function scratchDir(prefix = "pc-sbx-test-"): string {
  return tempDirForTest(prefix, { base: "/tmp" });
}

/** A loopback HTTP server answering `body`; closed by `cleanupAll`. */
export async function loopbackServer(
  body: string,
  host = "127.0.0.1",
): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) => response.end(body));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * A raw TCP server on loopback handing each connection to `onSocket` (errors ignored); its
 * connections are destroyed and it is closed by `cleanupAll`. Returns its port.
 */
export async function rawLoopbackServer(onSocket: (socket: Socket) => void): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** A loopback HTTP server no sandbox may reach: it records every request it gets; closed by `cleanupAll`. */
export async function canaryServer(): Promise<{ port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.end("canary");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, hits };
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `script` (an ES module that imports the built package from `$ENTRY` and reads its input
 * from `$SPEC`) with this Node in private namespaces made by `unshare` (`--net` by default), once
 * the `setup` shell commands (`ip addr add …`, a bind mount) have run there as root.
 */
export function runEntryScriptInNamespaces(
  setup: readonly string[],
  script: string,
  spec: unknown,
  unshareArgs: readonly string[] = ["--net"],
): Promise<ExecResult> {
  const shell = [...setup, `exec "$NODE" --input-type=module -e "$SCRIPT"`].join(" && ");
  return exec("unshare", [...unshareArgs, "sh", "-c", shell], {
    PATH: process.env.PATH ?? "",
    NODE: process.execPath,
    SCRIPT: script,
    ENTRY: builtEntry,
    SPEC: JSON.stringify(spec),
  });
}

export function exec(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { env, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
      resolve({ code: Number.isNaN(code) ? 1 : code, stdout, stderr });
    });
    killWhenTestEnds(child);
  });
}

/** A process a test started ends with that test, also one the test timed out waiting for. */
function killWhenTestEnds(child: ChildProcess): void {
  try {
    onTestFinished(() => {
      child.kill("SIGKILL");
    });
  } catch {
    // Started outside a test (from a hook): that hook's own teardown owns it.
  }
}

/**
 * Runs `shell` in a private mount namespace of its own (`unshare --mount --propagation private`),
 * so the mounts it makes (the repository's view, planted host state) vanish with it.
 */
export function inPrivateMountNamespace(
  shell: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ExecResult> {
  return exec("unshare", ["--mount", "--propagation", "private", "sh", "-c", shell], env);
}

/**
 * Runs `command args` in each scope (`scopesProbeScript`, the package seen through `REPO_VIEW`)
 * in a private mount namespace where the shell line `setup` has changed the host first; per
 * scope, the stdout of a run that exited 0, else its stderr. Throws on the probe's own failure.
 */
export async function probeScopesAfterHostSetup(
  setup: string,
  probe: Omit<ScopesProbe, "entry">,
): Promise<Record<string, string>> {
  const script = scopesProbeScript({ entry: viaRepoView(builtEntry), ...probe });
  const result = await inPrivateMountNamespace(
    `${bindRepoView} && ${setup} && exec ${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`,
    { PATH: process.env.PATH, SCRIPT: script },
  );
  if (result.code !== 0 || result.stderr !== "")
    throw new Error(`probe failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, string>;
}

/** Host processes whose command line holds `marker` (their pids). */
export function processesNaming(marker: string): string[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(marker);
      } catch {
        return false;
      }
    });
}

/** `vi.waitFor` options for what a sandbox does in its own time: up to 10 s on a loaded 2-core machine. */
export const SETTLE = { timeout: 10_000, interval: 50 } as const;

/** Runs a Node script in the sandbox through the spawn helper, with a 20 s timeout. */
export function runNodeInSandbox(
  script: string,
  sandbox: LocalProcessSandboxOptions,
  extra: { cwd?: string; env?: Record<string, string>; timeoutSec?: number } = {},
): Promise<RunProcessResult> {
  return runChildProcess("sandbox-test", process.execPath, ["-e", script], {
    cwd: extra.cwd ?? sandbox.workspaceDir,
    env: extra.env ?? {},
    timeoutSec: extra.timeoutSec ?? 20,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", ...sandbox },
  });
}

/** Runs a shell command line in the sandbox. */
export function runShellInSandbox(
  line: string,
  sandbox: LocalProcessSandboxOptions,
  extra: { cwd?: string; timeoutSec?: number } = {},
): Promise<RunProcessResult> {
  return runChildProcess("sandbox-test", "/bin/sh", ["-c", line], {
    cwd: extra.cwd ?? sandbox.workspaceDir,
    env: {},
    timeoutSec: extra.timeoutSec ?? 20,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", ...sandbox },
  });
}
