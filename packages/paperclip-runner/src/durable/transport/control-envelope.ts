import { type DurableIdentity, IDENTITY_KEYS } from "../durable-identity.js";
import { PRP_PROTOCOL } from "./prp-versions.js";
import { frameInvalid } from "./secure-channel.js";

/** What every server message on a connection names at its top level, as its welcome set it. */
export interface ConnectionEnvelope {
  readonly identity: DurableIdentity;
  readonly version: number;
  readonly connectionId: string;
  readonly leaseId: string;
}

/**
 * Pure: checks the envelope of a server message (the welcome, then every `ack`, `command`,
 * `command_result_ack`, `lease_renewed`): the server stamps each with the protocol, the
 * connection's version, the run's identity, the connection id and the lease id
 * (`#controlEnvelope` in the server's control plane), and upstream's runner closes a connection
 * whose frame names anything else ("control envelope connection lease is mismatched or expired",
 * "control envelope runId does not match the authenticated session", "control envelope protocol
 * identity is invalid"). Sealed under the session's keys, such a frame can only come from the
 * server, meant for another connection, lease or run: it is not applied here either.
 * `ERR_RUNNER_DURABLE_FRAME_INVALID`, reason `envelope`, naming the fields.
 */
export function checkControlEnvelope(message: Record<string, unknown>, expected: ConnectionEnvelope): void {
  const wanted: Record<string, unknown> = {
    protocol: PRP_PROTOCOL,
    version: expected.version,
    ...Object.fromEntries(IDENTITY_KEYS.map((key) => [key, expected.identity[key]])),
    connectionId: expected.connectionId,
    connectionLeaseId: expected.leaseId,
  };
  const mismatched = Object.entries(wanted)
    .filter(([key, value]) => message[key] !== value)
    .map(([key]) => key);
  if (mismatched.length === 0) return;
  throw frameInvalid(
    `the server's ${describeKind(message.kind)} is not addressed to this connection (${mismatched.join(", ")})`,
    "envelope",
  );
}

function describeKind(kind: unknown): string {
  return typeof kind === "string" && /^[a-z_]{1,40}$/.test(kind) ? kind : "message";
}
