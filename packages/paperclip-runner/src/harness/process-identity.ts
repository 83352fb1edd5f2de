import { readFileSync } from "node:fs";

/** A process as recorded in the durable state: pid plus kernel start time, so a reused pid is not mistaken for it. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: string;
}

/** The fields of `/proc/<pid>/stat` after the command name (field 3 onwards), or null when the process is gone. */
function readStatFields(pid: number): string[] | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) is parenthesised and may itself contain spaces or parentheses.
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The start time (field 22 of `/proc/<pid>/stat`, in clock ticks since boot), or null when the process is gone. */
export function readProcessStartTime(pid: number): string | null {
  return readStatFields(pid)?.[19] ?? null;
}

/** The state letter (field 3: `R`, `S`, `Z`…), or null when the process is gone. */
export function readProcessState(pid: number): string | null {
  return readStatFields(pid)?.[0] ?? null;
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
