import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, afterEach } from "vitest";

const perTest = new Set<ChildProcess>();
const perFile = new Set<ChildProcess>();

/** Kills and reaps every process of `set` that has not exited yet. */
async function stopAll(set: Set<ChildProcess>): Promise<void> {
  const running = [...set].filter((child) => child.exitCode === null && child.signalCode === null);
  set.clear();
  await Promise.all(
    running.map(async (child) => {
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    }),
  );
}

// After each test (or each file), passed or failed: every process started and not seen to exit is killed and reaped.
afterEach(() => stopAll(perTest));
afterAll(() => stopAll(perFile));

/**
 * Registers a spawned process for teardown and returns it: after its test, or,
 * for the tests of a `describe.concurrent` (whose `afterEach` cannot tell whose
 * process is whose), after the file.
 */
export function tracked<T extends ChildProcess>(child: T, lifetime: "test" | "file" = "test"): T {
  (lifetime === "test" ? perTest : perFile).add(child);
  return child;
}
