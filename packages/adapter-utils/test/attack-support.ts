import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import path from "node:path";
import type { LocalProcessSandboxOptions, LocalProcessSandboxSpawnTarget } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { exec, onCleanup, packageDir } from "./sandbox-support.js";

/**
 * Compiles test/fixtures/`name`.c into `dir`/`name` (cc, as the package build needs anyway);
 * static, so it runs in every scope, the fresh-root ones included. Returns the binary.
 */
export async function buildStaticFixture(name: string, dir: string): Promise<string> {
  const binary = path.join(dir, name);
  const source = path.join(packageDir, "test", "fixtures", `${name}.c`);
  const built = await exec(process.env.CC || "cc", ["-O1", "-static", "-o", binary, source]);
  if (built.code !== 0) throw new Error(`cannot compile test/fixtures/${name}.c: ${built.stderr}`);
  return binary;
}

/** Runs `command` through runChildProcess in a sandbox of `ws` and `scope`: the run as the caller sees it. */
export function runInSandbox(
  ws: string,
  scope: Omit<LocalProcessSandboxOptions, "workspaceDir">,
  command: string,
  args: readonly string[],
): ReturnType<typeof runChildProcess> {
  return runChildProcess("attack", command, [...args], {
    cwd: ws,
    env: {},
    timeoutSec: 30,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ws, ...scope },
  });
}

/** Runs `command` in a sandbox of `ws` and `scope` (`runInSandbox`); its stdout, once it exited 0. */
export async function runSandboxed(
  ws: string,
  scope: Omit<LocalProcessSandboxOptions, "workspaceDir">,
  command: string,
  args: readonly string[],
): Promise<string> {
  const result = await runInSandbox(ws, scope, command, args);
  if (result.exitCode !== 0) throw new Error(`${command} exited ${result.exitCode}: ${result.stderr}`);
  return result.stdout;
}

/**
 * Runs `command` in a sandbox of `ws` and `scope` and, once its stdout matches `ready`, runs
 * `hostAct` on the host while the program still runs (it waits for `goOn`, a file of `ws`,
 * which every scope shows), then writes `goOn` to let it end. Its stdout, once it exited 0,
 * and what `hostAct` returned (undefined if the program never got ready).
 */
export async function runWhileHostActs<T>(
  ws: string,
  scope: Omit<LocalProcessSandboxOptions, "workspaceDir">,
  command: string,
  args: readonly string[],
  act: { readonly ready: RegExp; readonly goOn: string; readonly hostAct: () => Promise<T> },
): Promise<{ stdout: string; acted: T | undefined }> {
  let said = "";
  let acting = false;
  let acted: T | undefined;
  const result = await runChildProcess("attack", command, [...args], {
    cwd: ws,
    env: {},
    timeoutSec: 30,
    graceSec: 1,
    onLog: async (stream, chunk) => {
      if (stream !== "stdout" || acting) return;
      said += chunk;
      if (!act.ready.test(said)) return;
      acting = true;
      acted = await act.hostAct();
      await writeFile(act.goOn, "");
    },
    localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ws, ...scope },
  });
  if (result.exitCode !== 0) throw new Error(`${command} exited ${result.exitCode}: ${result.stderr}`);
  return { stdout: result.stdout, acted };
}

/** Compiles test/fixtures/attacks.c into `dir`; returns the binary. */
export const buildAttacks = (dir: string): Promise<string> => buildStaticFixture("attacks", dir);

/** A host TCP listener no sandbox may reach: it counts every connection and the bytes sent to it. */
export async function hostSink(): Promise<{
  port: number;
  hits: () => { connections: number; bytes: string };
}> {
  let connections = 0;
  let bytes = "";
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("data", (chunk) => {
      bytes += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const port = (server.address() as { port: number }).port;
  return { port, hits: () => ({ connections, bytes }) };
}

/** An echo server on loopback, the allowed target of a tunnel. */
export async function echoServer(): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as { port: number }).port;
}

/** Spawns a built target as a caller of upstream's API would (`extraEnv` over its env); resolves its exit code and output. */
export function spawnTarget(
  target: LocalProcessSandboxSpawnTarget,
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...target.env, ...extraEnv }))
    if (value !== undefined) env[key] = value;
  const child = spawn("/usr/bin/bwrap", target.args, {
    cwd: target.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}
