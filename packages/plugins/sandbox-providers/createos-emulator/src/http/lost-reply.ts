import type { FaultContext } from "../fault-book.js";
import { fail, type RouteContext } from "./route-context.js";

/**
 * Plays a `lose-create-reply` fault armed for this create (a rule's `route`, default
 * `process.create`, names which create), once the thing is made: the connection is destroyed,
 * or `status` answered. True when the reply was lost so.
 */
export function loseCreateReply(ctx: RouteContext, context: FaultContext): boolean {
  const lost = ctx.state.faults.arm(
    "lose-create-reply",
    context,
    (fault) => (fault.route ?? "process.create") === context.route,
  );
  if (!lost?.fire()) return false;
  ctx.noteFault("lose-create-reply");
  if (lost.fault.status === undefined) ctx.res.socket?.destroy();
  else fail(ctx, lost.fault.status, "internal", "The create reply was lost.");
  return true;
}
