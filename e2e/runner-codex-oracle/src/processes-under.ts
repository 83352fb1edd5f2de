import { readdir, readFile, readlink } from "node:fs/promises";

/**
 * Live processes (pid and command line) whose command line names `dir` or whose working directory is inside
 * it: what a run in that directory (the server's detached runner, its Codex) left behind.
 */
export async function processesUnder(dir: string): Promise<{ pid: number; command: string }[]> {
  const found: { pid: number; command: string }[] = [];
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, "utf8")).replaceAll("\0", " ");
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => "");
      if (cmdline.includes(dir) || cwd === dir || cwd.startsWith(`${dir}/`))
        found.push({ pid, command: cmdline.trim() });
    } catch {
      // The process ended while it was being read.
    }
  }
  return found;
}

/** SIGKILLs each pid (one already gone is fine). */
export function killAll(processes: readonly { pid: number }[]): void {
  for (const { pid } of processes) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
