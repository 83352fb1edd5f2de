/** `/proc/net/unix`'s `Flags` bit of a listening socket (`__SO_ACCEPTCON`). */
const LISTENING = 0x10000;
/** `SOCK_STREAM` and `SOCK_SEQPACKET`, as `/proc/net/unix` writes a socket's `Type`. */
const CONNECTION_TYPES = new Set(["0001", "0005"]);
/** `SS_CONNECTED`, as `/proc/net/unix` writes a socket's `St`. */
const CONNECTED = "03";

/**
 * The inodes of the connected Unix stream and seqpacket sockets that `/proc/net/unix` lists
 * (pure): such a socket can be connected nowhere else (`EISCONN`), so a program that holds
 * one reaches only its peer. Any other socket can: an IP socket disconnected with
 * `connect(AF_UNSPEC)` connects again anywhere in the network namespace it was made in,
 * the caller's, whatever the sandbox's network scope; a datagram socket sends to any
 * address; a listening one accepts the host's connections.
 */
export function connectedUnixStreamInodes(procNetUnix: string): Set<number> {
  const inodes = new Set<number>();
  for (const line of procNetUnix.split("\n").slice(1)) {
    const [, , , flags, type, state, inode] = line.trim().split(/\s+/);
    if (!flags || !type || !state || !inode) continue;
    if (!CONNECTION_TYPES.has(type) || state !== CONNECTED) continue;
    if (Number.parseInt(flags, 16) & LISTENING) continue;
    inodes.add(Number(inode));
  }
  return inodes;
}
