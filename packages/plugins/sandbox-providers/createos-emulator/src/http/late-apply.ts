import { setTimeout as delay } from "node:timers/promises";
import type { RouteContext } from "./route-context.js";

/**
 * Waits out a `late-apply` fault armed for this request, if one fires: the route runs only
 * afterwards, whether or not its client is still there (meant for calls without a body:
 * pause, resume, delete). The wait is not cut by the emulator's close, which awaits it like
 * any request in flight.
 */
export async function lateApply(ctx: RouteContext): Promise<void> {
  const armed = ctx.state.faults.arm(
    "late-apply",
    ctx.match,
    (fault) => fault.route === "*" || fault.route === ctx.match.route,
  );
  if (!armed?.fire()) return;
  ctx.noteFault("late-apply");
  await delay(armed.fault.delayMs);
}
