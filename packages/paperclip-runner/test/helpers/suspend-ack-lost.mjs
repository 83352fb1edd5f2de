// Runs inside a Node 24 driver of the real server's code: ends a runner after it completed a
// `runner.suspend` and before the server's acknowledgement of that suspend's result reaches it.
// Every runner, upstream's and ours, journals the suspend's result with its fence
// (`pendingTerminalDelivery`) before sending that result, and the server acknowledges only what
// it received; so once armed, the first frame the server writes while `runner-state.json` holds
// the fence (the acknowledgement, or anything the server sent first) is swallowed and the
// runner's process group SIGKILLed, before anything more is written to it: deterministic, no
// timing. The server's writes to its runner sockets are the only socket writes in the driver.
import { readFileSync } from "node:fs";
import { Socket } from "node:net";
import { join } from "node:path";

/** Whether `runner-state.json` under `runnerDir` fences a completed suspend. */
function fencedSuspend(runnerDir) {
  try {
    const state = JSON.parse(readFileSync(join(runnerDir, "runner-state.json"), "utf8"));
    return state.pendingTerminalDelivery?.commandType === "runner.suspend";
  } catch {
    return false;
  }
}

/**
 * Patches socket writes in this process. `arm(pgid)` makes the next write seen with the fence on
 * disk end that process group instead; it fires once. `fired` says whether it did.
 */
export function suspendAckLost(runnerDir) {
  const write = Socket.prototype.write;
  let armed = null;
  let fired = false;
  Socket.prototype.write = function (...args) {
    if (armed !== null && fencedSuspend(runnerDir)) {
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
