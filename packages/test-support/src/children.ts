import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, onTestFinished } from "vitest";

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Stops a child: SIGTERM first (so it can clean up after itself), SIGKILL if it has not
 * exited within `patienceMs`. Resolves once it has exited.
 */
export async function stopChild(child: ChildProcess, patienceMs = 5_000): Promise<void> {
  if (hasExited(child)) return;
  const exited = once(child, "exit");
  const patience = new AbortController();
  child.kill("SIGTERM");
  const stopped = await Promise.race([
    exited.then(() => true),
    delay(patienceMs, false, { signal: patience.signal }).catch(() => false),
  ]);
  patience.abort();
  if (!stopped && !hasExited(child)) {
    child.kill("SIGKILL");
    await exited;
  }
}

/** The child `start` returns, stopped (`stopChild`) when the current test finishes if it is still running. */
export function childForTest<Child extends ChildProcess>(start: () => Child, patienceMs?: number): Child {
  const child = start();
  onTestFinished(() => stopChild(child, patienceMs));
  return child;
}

/**
 * For the tests of a `describe.concurrent`, whose children no one test owns (vitest cannot tell
 * which concurrent test a global hook belongs to): returns a `childForTest` whose children are
 * stopped after the file's last test instead. Call it at module or `describe` level.
 */
export function childrenForFile(
  patienceMs?: number,
): <Child extends ChildProcess>(start: () => Child) => Child {
  const started = new Set<ChildProcess>();
  afterAll(async () => {
    await Promise.all([...started].map((child) => stopChild(child, patienceMs)));
  });
  return (start) => {
    const child = start();
    started.add(child);
    return child;
  };
}

/** Kills a process group the test saw (a sandbox, a daemon's harness) if it outlived the test. */
export function killGroupAfterTest(pgid: number): void {
  onTestFinished(() => {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Already gone: the usual case.
    }
  });
}
