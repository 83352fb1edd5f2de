/**
 * The first bytes a native bridge writes on a proxy connection it can take a
 * tunnel over on: a NUL (no HTTP request starts with one), "PCH1", then the
 * connection's random 64-bit id, big-endian. Must match native/bridge.h.
 */
export const HANDOFF_PREAMBLE_MAGIC = Buffer.from("\0PCH1", "latin1");
export const HANDOFF_PREAMBLE_LENGTH = HANDOFF_PREAMBLE_MAGIC.length + 8;

/** The courier's socket, beside proxy.sock in the run's private directory (where the bridge looks). */
export const HANDOFF_SOCKET_NAME = "handoff.sock";

/** The byte the host writes at the drain offset once everything it held is forwarded. */
export const HANDOFF_DRAINED_MARK = Buffer.from([0]);

export type HandoffPreambleMatch =
  | { readonly status: "handoff"; readonly id: string; readonly rest: Buffer }
  | { readonly status: "none" }
  | { readonly status: "partial" };

/**
 * What the first bytes of a proxy connection say: a complete preamble (its id as
 * 16 lowercase hex digits, and the bytes after it), no preamble (a plain client),
 * or not enough bytes yet to tell.
 */
export function matchHandoffPreamble(bytes: Buffer): HandoffPreambleMatch {
  const compared = Math.min(bytes.length, HANDOFF_PREAMBLE_MAGIC.length);
  if (!bytes.subarray(0, compared).equals(HANDOFF_PREAMBLE_MAGIC.subarray(0, compared)))
    return { status: "none" };
  if (bytes.length < HANDOFF_PREAMBLE_LENGTH) return { status: "partial" };
  return {
    status: "handoff",
    id: bytes.subarray(HANDOFF_PREAMBLE_MAGIC.length, HANDOFF_PREAMBLE_LENGTH).toString("hex"),
    rest: bytes.subarray(HANDOFF_PREAMBLE_LENGTH),
  };
}
