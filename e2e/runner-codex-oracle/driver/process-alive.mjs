// Whether a process of the scenario still runs (a zombie does not). Written for this repository.
import { readProcStat } from "@paperclipai/internal";

export const alive = (pid) => {
  const stat = readProcStat(pid);
  return stat !== undefined && !stat.zombie;
};
