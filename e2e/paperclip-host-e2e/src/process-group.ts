import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";

/** A child started in its own process group; its output kept and appended to a log file. */
export interface GroupProcess {
  readonly child: ChildProcess;
  readonly logPath: string;
  readonly exited: Promise<number | null>;
  /** Everything the process printed so far (stdout and stderr interleaved). */
  output(): string;
  /**
   * SIGTERM to the whole group, then SIGKILL after `graceMs`; once the leader is gone, the rest of
   * the group gets up to `graceMs` more to exit on its own before SIGKILL. Resolves then.
   */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly logPath: string;
}

/** Whether any process of `child`'s group is still alive. */
function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Spawns `command` detached (a new process group), stdout and stderr kept and logged. */
export function startGroup(command: string, args: readonly string[], options: StartOptions): GroupProcess {
  const log = createWriteStream(options.logPath, { flags: "a" });
  let text = "";
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const record = (chunk: Buffer): void => {
    text += chunk.toString("utf8");
    log.write(chunk);
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (error) => {
      text += `\nspawn failed: ${error.message}\n`;
      resolve(null);
    });
    child.once("close", (code) => {
      log.end();
      resolve(code);
    });
  });
  return {
    child,
    logPath: options.logPath,
    exited,
    output: () => text,
    async stop(graceMs = 20_000) {
      if (child.exitCode === null && child.signalCode === null) {
        signalGroup(child, "SIGTERM");
        const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // The group's other members (the server's embedded Postgres) got the same SIGTERM and are
      // shutting down: killed mid-way, a postmaster leaves its shared memory in /dev/shm.
      const settleBy = Date.now() + graceMs;
      while (groupAlive(child) && Date.now() < settleBy) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      signalGroup(child, "SIGKILL");
    },
  };
}

/** Polls `check` every 250 ms until it returns a value, the process exits, or `timeoutMs` passes. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  options: { readonly timeoutMs: number; readonly process?: GroupProcess },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    const child = options.process?.child;
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`${what}: the process exited (${child.exitCode ?? child.signalCode}) first`);
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs every step in order, even after one fails (each stops something); then throws the first failure. */
export async function stopEach(...steps: ReadonlyArray<() => Promise<unknown> | undefined>): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    await Promise.resolve()
      .then(step)
      .catch((error: unknown) => failures.push(error));
  }
  if (failures.length > 0) throw failures[0];
}
