/**
 * The run a durable runner serves, exactly as the launcher named it. Every id is
 * echoed to the server byte for byte: the server compares them, never parses them.
 */
export interface DurableIdentity {
  readonly runnerInstanceId: string;
  readonly environmentLeaseId: string;
  readonly runId: string;
  readonly normalizedSessionId: string;
  readonly turnId: string;
  readonly itemId: string;
}

export const IDENTITY_KEYS = [
  "runnerInstanceId",
  "environmentLeaseId",
  "runId",
  "normalizedSessionId",
  "turnId",
  "itemId",
] as const satisfies readonly (keyof DurableIdentity)[];

/** The identity as its own object, fields in a fixed order (envelopes spread it at their top level). */
export function identityFields(identity: DurableIdentity): DurableIdentity {
  return Object.fromEntries(IDENTITY_KEYS.map((key) => [key, identity[key]])) as unknown as DurableIdentity;
}
