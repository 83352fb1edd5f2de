// Runs inside a Node 24 driver of the real server's code: ends a runner after it completed a
// `runner.suspend` and the server stored that suspend's result, before the server's
// acknowledgement of it reaches the runner. Every runner, upstream's and ours, journals the
// suspend's result with its fence (`pendingTerminalDelivery`) before sending that result, and the
// server saves the result in its control journal, then writes the acknowledgement in the same
// synchronous step; so once armed, the first socket write made while `runner-state.json` holds the
// fence and `control-plane-state.json` the completed suspend is that acknowledgement: it is
// swallowed and the runner's process group SIGKILLed, before anything more is written to it.
// Deterministic, no timing: the case is always "result stored, ack lost". The driver's stdout and
// stderr are pipe sockets too (its parent reads them): they are let through whatever the files say,
// so a record or a log line written meanwhile neither fires the hook nor is swallowed.
import { readFileSync } from "node:fs";
import { Socket } from "node:net";
import { join } from "node:path";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/**
 * The status of the last `runner.suspend` in the server's control journal under `root`, or null
 * when there is none (or the file cannot be read).
 */
export function suspendStatus(root) {
  try {
    const { commands } = readJson(join(root, "control-plane", "control-plane-state.json"));
    return commands.findLast((command) => command.type === "runner.suspend")?.status ?? null;
  } catch {
    return null;
  }
}

/** Whether the runner's state under `root` fences a completed suspend the server has stored. */
function storedFencedSuspend(root) {
  try {
    const state = readJson(join(root, "runner", "runner-state.json"));
    return (
      state.pendingTerminalDelivery?.commandType === "runner.suspend" && suspendStatus(root) === "completed"
    );
  } catch {
    return false;
  }
}

/**
 * Patches socket writes in this process. `arm(pgid)` makes the next write to a socket other than
 * stdout and stderr, seen with the fence and the stored result on disk under `root`, end that
 * process group instead; it fires once. `fired` says whether it did.
 */
export function suspendAckLost(root) {
  const write = Socket.prototype.write;
  let armed = null;
  let fired = false;
  Socket.prototype.write = function (...args) {
    const toParent = this === process.stdout || this === process.stderr;
    if (armed !== null && !toParent && storedFencedSuspend(root)) {
      const pgid = armed;
      armed = null;
      fired = true;
      process.kill(-pgid, "SIGKILL");
      // Swallowed, as if lost with the runner: its callback, if any, never runs.
      return true;
    }
    return write.apply(this, args);
  };
  return {
    arm(pgid) {
      armed = pgid;
    },
    get fired() {
      return fired;
    },
    restore() {
      Socket.prototype.write = write;
    },
  };
}
