import { frameInvalid } from "./secure-channel.js";

/**
 * Pure: the `ackedSourceSeq` of a server `ack` (or `welcome`), checked. A cumulative ack is a
 * count, and it cannot cover an event the runner has not sent: trimming the outbox on such an
 * ack would drop events the server never received (a missing or non-numeric value used to
 * empty the whole outbox, and the non-count it left in the state file refused every restart).
 * Upstream's runner refuses both ("cumulative ACK cannot move beyond the produced source
 * cursor"). Throws `ERR_RUNNER_DURABLE_FRAME_INVALID` (reason `ack`).
 */
export function readServerAck(value: unknown, sentThrough: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw frameInvalid(`the server's ackedSourceSeq is not a count (${describe(value)})`, "ack");
  }
  if (value > sentThrough) {
    throw frameInvalid(
      `the server acknowledged source seq ${value}, past the last event sent (${sentThrough})`,
      "ack",
    );
  }
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
