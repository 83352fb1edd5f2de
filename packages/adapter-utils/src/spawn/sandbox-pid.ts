import { readProcStat } from "@paperclipai/internal";

/** Field 22 of `/proc/<pid>/stat`: when the process started, in clock ticks since boot. */
export function processStartTime(pid: number): string | null {
  return readProcStat(pid)?.startTime ?? null;
}

/**
 * The sandbox's pid 1 (bwrap's `child-pid`), remembered with its start time when bwrap
 * reports it, so that killing it at the end of the run can never hit another process
 * that took the same pid meanwhile. Killing pid 1 of a pid namespace kills every process
 * in it, whatever the program did to its own parent-death signals.
 */
export class SandboxInit {
  #pid: number | null = null;
  #startTime: string | null = null;

  remember(pid: number): void {
    if (this.#pid === pid) return;
    this.#pid = pid;
    this.#startTime = processStartTime(pid);
  }

  kill(): void {
    const pid = this.#pid;
    if (pid === null || this.#startTime === null) return;
    if (processStartTime(pid) !== this.#startTime) return;
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
}
