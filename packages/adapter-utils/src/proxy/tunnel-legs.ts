import type { Socket } from "node:net";

/**
 * When one leg of a tunnel closes, the other follows: at once after an error,
 * otherwise after it has flushed what it still holds for its peer. A leg that
 * already ended is not ended again (Node would build an error object for it).
 * The Node bridge's legs follow each other the same way (`bridge/node-bridge/`).
 */
export function followLeg(leg: Socket, hadError: boolean): void {
  if (hadError || leg.writableFinished) {
    leg.destroy();
    return;
  }
  if (!leg.writableEnded) leg.end();
  leg.once("finish", () => leg.destroy());
}

/** Ends the write side of a leg whose peer sent its FIN, unless it is already ending or gone. */
export function endLeg(leg: Socket): void {
  if (!leg.writableEnded && !leg.destroyed) leg.end();
}
