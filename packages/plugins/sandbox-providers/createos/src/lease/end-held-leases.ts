import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { endSandbox } from "./end-sandbox.js";

/**
 * Deletes, at shutdown, the sandbox of every lease the host still holds (acquired or resumed
 * here and not given back). The host stops a worker (disable, uninstall, upgrade, server stop)
 * without releasing its leases: the release it then tries for the failing run finds no worker,
 * and after an uninstall none ever comes, so only this worker can end those sandboxes. Their
 * runs are failing anyway (their commands were just cancelled and the host has no worker to
 * send the next one to); a reusable lease whose sandbox is gone is resumed as `expired` and
 * replaced. Paused sandboxes the host took back (released for reuse) are not held and are kept.
 * A lease a release or destroy is ending is left to it, and deleted here only once that has
 * failed to: a last attempt, since the host's own retry needs a worker. A delete that fails is
 * reported by `endSandbox` (the host's log) and does not stop the others.
 */
export async function endHeldLeases(runtime: PluginRuntime): Promise<void> {
  await Promise.allSettled(
    runtime.leases.held.map(async ({ sandboxId }) => {
      const lease = await runtime.leases.heldOnceEnded(sandboxId);
      if (lease === undefined) return;
      await endSandbox(
        runtime,
        lease.client,
        lease.sandboxId,
        runtime.cleanupDeadline(lease.lifecycleTimeoutMs),
        "shutdown",
      );
    }),
  );
}
