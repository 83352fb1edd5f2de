import { type ChildProcess, spawn } from "node:child_process";
import type { ProcessIdentity } from "./process-identity.js";

/**
 * `$1` is the group (the leader's pid), `$2` the leader's start time. The group is
 * signalled only while it is provably the harness's: its leader alive with the same
 * start time, or its leader gone while members remain (Linux does not reuse a pid
 * that is still some group's id). A harness that follows the protocol has left on
 * its own during the first second, after reading what was still in its stdin.
 */
export const WATCHDOG_SCRIPT = `
ours() {
  t=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20)
  [ -z "$t" ] || [ "$t" = "$2" ]
}
read _
sleep 1
ours "$1" "$2" && kill -TERM "-$1" 2>/dev/null
sleep 1
ours "$1" "$2" && kill -9 "-$1" 2>/dev/null
exit 0
`;

/**
 * The watchdog shell's whole environment. It runs on the host, outside any sandbox, for
 * every harness: the daemon's own env may hold loader variables meant for the harness
 * (`LD_PRELOAD` named in `PAPERCLIP_RUNNER_HARNESS_ENV`), which must not load into it.
 * It needs only `sed`, `cut` and `sleep` on a fixed PATH.
 */
export const WATCHDOG_ENV: Readonly<Record<string, string>> = Object.freeze({
  PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
  LC_ALL: "C",
});

/**
 * Stops a harness's process group when the daemon dies without stopping it
 * (SIGKILL, OOM): Node cannot set a parent-death signal, so a tiny shell in its
 * own group blocks reading a pipe only the daemon holds; the daemon's death closes
 * the pipe, and the shell gives the harness a second to leave, then TERMs and KILLs
 * the group. The daemon dismisses it as soon as the harness exits.
 */
export class GroupWatchdog {
  private readonly child: ChildProcess | null;

  constructor(leader: ProcessIdentity) {
    try {
      this.child = spawn(
        "/bin/sh",
        ["-c", WATCHDOG_SCRIPT, "paperclip-harness-watchdog", String(leader.pid), leader.startTime],
        { stdio: ["pipe", "ignore", "ignore"], detached: true, env: { ...WATCHDOG_ENV } },
      );
      this.child.on("error", () => undefined);
      this.child.stdin?.on("error", () => undefined);
      this.child.unref();
    } catch {
      // Without a shell, the restart-time stale-group kill is the only safety net left.
      this.child = null;
    }
  }

  dismiss(): void {
    if (this.child?.pid === undefined) return;
    try {
      process.kill(this.child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
