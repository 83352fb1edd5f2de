import { type ChildProcess, spawn } from "node:child_process";

/** How long a courier may take to say it runs, or that it listens, before it is given up. */
const ANSWER_TIMEOUT_MS = 5_000;
/** How long a courier may take to exit on its channel's end before it is killed. */
const EXIT_GRACE_MS = 1_000;

/** The first stdout line of `child` (without its newline), or `null` if it ends or stays silent. */
function nextLine(child: ChildProcess): Promise<string | null> {
  return new Promise((resolve) => {
    let said = "";
    const finish = (line: string | null) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      child.off("error", onExit);
      resolve(line);
    };
    const onData = (chunk: Buffer) => {
      said += chunk.toString("utf8");
      const end = said.indexOf("\n");
      if (end !== -1) finish(said.slice(0, end));
    };
    const onExit = () => finish(null);
    const timer = setTimeout(() => finish(null), ANSWER_TIMEOUT_MS);
    timer.unref();
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
    child.once("error", onExit);
  });
}

/** Ends a courier: its IPC channel first (it exits on the channel's end), SIGKILL after a grace. */
export function stopCourier(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.disconnect();
    else child.kill("SIGKILL");
  });
}

type Referenced = { ref?: () => void; unref?: () => void } | null | undefined;

/**
 * Whether the courier keeps the host's event loop alive: while a run waits for its
 * answer it must; idle, or serving a proxy (whose server decides), it must not.
 */
function holdLoop(child: ChildProcess, held: boolean): void {
  for (const handle of [child, child.channel, child.stdin, child.stdout] as Referenced[]) {
    if (held) handle?.ref?.();
    else handle?.unref?.();
  }
}

/**
 * Starts `<binary> --courier`, which says "ready" and waits for its socket path. Idle,
 * it does not keep the host process alive, and it ends with the host: its stdin and
 * IPC channel close, and the kernel kills it when its parent dies.
 */
async function startSpare(binary: string): Promise<ChildProcess | null> {
  const child = spawn(binary, ["--courier"], {
    stdio: ["pipe", "pipe", "ignore", "ipc"],
    serialization: "json",
  });
  child.on("error", () => {});
  const ready = (await nextLine(child)) === "ready";
  holdLoop(child, false);
  if (ready) return child;
  await stopCourier(child);
  return null;
}

/** Per binary, one courier started ahead of need. */
const spares = new Map<string, Promise<ChildProcess | null>>();

/** Starts the next spare, unless one is on its way; its synchronous fork waits for a quiet moment. */
function refillSpare(binary: string): void {
  if (spares.has(binary)) return;
  spares.set(binary, new Promise((resolve) => setImmediate(() => resolve(startSpare(binary)))));
}

/**
 * A courier listening on `socketPath`, or `null` (nothing of it left running) when
 * none can. It comes from the spare started ahead of need, and the next spare starts
 * once this one listens: a sandbox start does not wait for a process start. One idle
 * spare per binary therefore outlives the last run, until the host process ends.
 */
export async function takeCourier(binary: string, socketPath: string): Promise<ChildProcess | null> {
  const spare = spares.get(binary);
  spares.delete(binary);
  let child = spare ? await spare : null;
  if (!child?.connected) child = await startSpare(binary);
  if (!child) {
    refillSpare(binary);
    return null;
  }
  holdLoop(child, true);
  child.stdin?.end(`${socketPath}\0`);
  const listening = (await nextLine(child)) === "listening";
  holdLoop(child, false);
  refillSpare(binary);
  if (listening) return child;
  await stopCourier(child);
  return null;
}
