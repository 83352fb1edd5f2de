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
