/**
 * The bytes the host and the native bridge agree on (native/bridge.h has the same).
 *
 * In the run's private directory, beside proxy.sock: the courier's socket (where
 * sockets are passed), and the proxy's socket for the bridge's connections (on each,
 * the host first writes the connection's id, which grants for its tunnel name). No
 * name is longer than "proxy.sock": whatever path fits proxy.sock fits them.
 */
export const HANDOFF_SOCKET_NAME = "pass.sock";
export const BRIDGE_SOCKET_NAME = "relay.sock";

/** The byte the host writes at the drain offset once everything it held is forwarded. */
export const HANDOFF_DRAINED_MARK = Buffer.from([0]);

/** A bridge connection's id: 8 bytes, big-endian, on the wire; 16 hex digits in courier messages. */
export interface ConnectionId {
  readonly bytes: Buffer;
  readonly hex: string;
}

export function connectionId(value: bigint): ConnectionId {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt.asUintN(64, value));
  return { bytes, hex: bytes.toString("hex") };
}
