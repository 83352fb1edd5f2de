import type { DurableIdentity } from "../../src/durable/durable-identity.js";

/** A durable run's identity for state unit tests, whose values only need to be stable. */
export const TEST_DURABLE_IDENTITY: DurableIdentity = {
  runnerInstanceId: "r",
  environmentLeaseId: "e",
  runId: "run",
  normalizedSessionId: "s",
  turnId: "t",
  itemId: "i",
};
