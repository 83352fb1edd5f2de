import { setTimeout as delay } from "node:timers/promises";
import { readProcStat } from "@paperclipai/internal";

/** A process as recorded in the durable state: pid plus kernel start time, so a reused pid is not mistaken for it. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: string;
}

/** The start time (field 22 of `/proc/<pid>/stat`, in clock ticks since boot), or null when the process is gone. */
export function readProcessStartTime(pid: number): string | null {
  return readProcStat(pid)?.startTime ?? null;
}

/** The state letter (field 3: `R`, `S`, `Z`…), or null when the process is gone. */
export function readProcessState(pid: number): string | null {
  return readProcStat(pid)?.state ?? null;
}

/**
 * Kills the process group a previous daemon's harness led, when that very process
 * is still alive (a SIGKILLed daemon could not stop it). Returns whether it did.
 */
export function killStaleProcessGroup(identity: ProcessIdentity): boolean {
  if (readProcessStartTime(identity.pid) !== identity.startTime) return false;
  try {
    process.kill(-identity.pid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves once the process `identity` names is gone or a zombie (dead, not reaped yet), or
 * after `boundMs`. A SIGKILL is delivered asynchronously: a runner that exits right after
 * sending it can be seen gone while its harness still runs for a moment.
 */
export async function processEnded(identity: ProcessIdentity, boundMs = 2_000): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const stat = readProcStat(identity.pid);
    if (stat === undefined || stat.startTime !== identity.startTime || stat.zombie) return true;
    if (Date.now() >= deadline) return false;
    await delay(5);
  }
}
