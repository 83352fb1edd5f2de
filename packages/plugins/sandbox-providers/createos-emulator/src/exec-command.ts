import type { EmulatedSandbox } from "./emulated-sandbox.js";
import type { EmulatorState } from "./emulator-state.js";
import type { LaunchRequest } from "./launcher.js";
import { killProcessTree, listTree } from "./process-tree.js";

// `exec` is for short commands; anything longer is killed, as the service's own limit would.
const EXEC_TIMEOUT_MS = 60_000;

export interface ExecResult {
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

function notStarted(request: LaunchRequest): ExecResult {
  return { exit_code: 127, signal: null, stdout: "", stderr: `exec: ${request.cmd}: cannot be started\n` };
}

/** Runs a short command to completion and returns its buffered output (each stream capped). */
export async function runBufferedCommand(
  state: EmulatorState,
  sandbox: EmulatedSandbox,
  request: LaunchRequest,
): Promise<ExecResult> {
  const limit = state.options.execOutputBytes;
  const launched = await state.launcher.spawn(request, sandbox).catch(() => undefined);
  if (!launched) return notStarted(request);
  const { child, cleanup } = launched;
  child.stdin?.on("error", () => {});
  child.stdin?.end();
  const pid = child.pid;
  const failed = new Promise((resolve) => child.on("error", resolve));
  if (pid === undefined) {
    await failed;
    await cleanup();
    return notStarted(request);
  }
  sandbox.execGroups.add(pid);
  const collect = (stream: NodeJS.ReadableStream | null) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream?.on("data", (chunk: Buffer) => {
      if (size >= limit) return;
      chunks.push(chunk.subarray(0, limit - size));
      size += chunk.length;
    });
    return () => Buffer.concat(chunks).toString("utf8");
  };
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const timer = setTimeout(() => void killProcessTree(pid, 1000), EXEC_TIMEOUT_MS);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("close", (exitCode: number | null, exitSignal: NodeJS.Signals | null) =>
      resolve([exitCode, exitSignal]),
    ),
  );
  clearTimeout(timer);
  await cleanup().catch(() => {});
  // Background children that outlive the command are killed with the sandbox.
  if (listTree(pid).length === 0) sandbox.execGroups.delete(pid);
  return { exit_code: code, signal, stdout: stdout(), stderr: stderr() };
}
