import { expect } from "vitest";
import { hostReusable, type PluginUnderTest } from "./plugin-harness.js";

/** A reusable lease released for reuse (its sandbox paused) and the params every lifecycle hook takes for it. */
export async function pausedLease(t: PluginUnderTest, runId: string) {
  const lease = await t.harness.acquireLease({ ...t.base, runId });
  const params = {
    ...t.base,
    providerLeaseId: lease.providerLeaseId!,
    leaseMetadata: hostReusable(lease.metadata!),
  };
  expect((await t.harness.releaseLease(params))?.state).toBe("stopped");
  return { lease, params };
}
