import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";

/** How often a paused stream is looked at again (paused while `onLog` or a relay's sink catches up). */
const PAUSED_RECHECK_MS = 10;
/** `fs.pipe-max-size` where it cannot be read: the kernel's default, 1 MiB. */
const DEFAULT_PIPE_MAX_BYTES = 1024 * 1024;

let pipeMaxBytes: number | null = null;

/**
 * The most a pipe can hold for an unprivileged writer: `F_SETPIPE_SZ` above
 * `/proc/sys/fs/pipe-max-size` needs `CAP_SYS_RESOURCE`, which no sandboxed program has.
 */
function pipeMax(): number {
  if (pipeMaxBytes === null) {
    try {
      pipeMaxBytes =
        Number.parseInt(readFileSync("/proc/sys/fs/pipe-max-size", "utf8"), 10) || DEFAULT_PIPE_MAX_BYTES;
    } catch {
      pipeMaxBytes = DEFAULT_PIPE_MAX_BYTES;
    }
  }
  return pipeMaxBytes;
}

/**
 * Closes one of a run's output pipes once what the run wrote has been read, when its end of
 * file does not come by itself. Called when the whole sandbox is dead (bwrap exited, then its
 * pid 1 and its cgroup were killed): no writer of the run is left, so all the run wrote is
 * already in the pipe. A write end still open belongs to a process outside the run: a program
 * can pass its stdout and stderr (`SCM_RIGHTS`) to another sandbox over a Unix socket both
 * reach (a shared workspace, the network-only scope's host tree, the host's abstract
 * namespace), which then held this run's result and cleanup for as long as it lived, and
 * wrote into its output meanwhile.
 *
 * The pipe is read dry once a whole turn of the event loop, its poll phase included, passes
 * with the stream flowing and no data (the first `setImmediate` may run right after this
 * turn's poll; the second follows the next one). Only flowing time counts: while `onLog` or a
 * relay's sink holds the stream paused, the pipe keeps its bytes and nothing is cut. An
 * outside writer that keeps it busy is cut once more than a full pipe has come since the
 * sandbox died, more than the run can have left in it.
 */
export function closeDrainedOutput(readable: Readable | null | undefined): void {
  if (!readable) return;
  const over = () => readable.destroyed || readable.readableEnded;
  if (over()) return;
  let bytes = 0;
  const count = (chunk: Buffer | string) => {
    bytes += chunk.length;
  };
  readable.on("data", count);
  readable.once("close", () => readable.off("data", count));
  const look = () => {
    if (over()) return;
    if (readable.isPaused()) {
      setTimeout(look, PAUSED_RECHECK_MS);
      return;
    }
    const before = bytes;
    setImmediate(() =>
      setImmediate(() => {
        if (over()) return;
        if (bytes > pipeMax() || (bytes === before && !readable.isPaused())) readable.destroy();
        else look();
      }),
    );
  };
  look();
}
