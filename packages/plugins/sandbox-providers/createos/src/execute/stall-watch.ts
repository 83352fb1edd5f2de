/**
 * The watchdog's verdict, tick by tick. Silence longer than the threshold is a stall only
 * when two consecutive ticks see it: ticks run in the event loop's timers phase, before the
 * poll phase that reads sockets, so after the loop was blocked (a long synchronous task, a GC
 * pause, a descheduled process) the first tick measures time in which nothing could be read,
 * while bytes that arrived meanwhile still wait in the socket. The loop polls between two
 * ticks, so the second one sees them if they came.
 */
export class StallWatch {
  #suspected = false;

  /** One tick; true when the connection is stalled. */
  tick(silentMs: number, thresholdMs: number): boolean {
    if (silentMs <= thresholdMs) {
      this.#suspected = false;
      return false;
    }
    if (this.#suspected) return true;
    this.#suspected = true;
    return false;
  }
}
