/** `/proc/net/unix`'s `Flags` bit of a listening socket (`__SO_ACCEPTCON`). */
const LISTENING = 0x10000;
/** `SOCK_STREAM` and `SOCK_SEQPACKET`, as `/proc/net/unix` writes a socket's `Type`. */
const CONNECTION_TYPES = new Set(["0001", "0005"]);
/** `SS_CONNECTED`, as `/proc/net/unix` writes a socket's `St`. */
const CONNECTED = "03";

/**
 * A record's fields as the kernel prints them on a 64-bit machine (`unix_seq_show`:
 * `"%pK: %08X %08X %08X %04X %02X %5lu"`), then its name after one space, if it is bound.
 * At least 58 bytes before the name.
 */
const RECORD =
  /^[0-9a-f]{16}: [0-9A-F]{8} [0-9A-F]{8} ([0-9A-F]{8}) ([0-9A-F]{4}) ([0-9A-F]{2}) ( *\d+)( .*)?$/;

/** The fields of `line` if it has a record's form (`RECORD`, the inode at least 5 wide, as `%5lu` pads it), else null. */
function recordFields(
  line: string,
): { flags: number; type: string; state: string; inode: number; named: boolean } | null {
  const match = RECORD.exec(line);
  if (!match || match[4]!.length < 5) return null;
  return {
    flags: Number.parseInt(match[1]!, 16),
    type: match[2]!,
    state: match[3]!,
    inode: Number(match[4]),
    named: match[5] !== undefined,
  };
}

/**
 * The inodes of the connected Unix stream and seqpacket sockets that `/proc/net/unix` lists
 * (pure): such a socket can be connected nowhere else (`EISCONN`), so a program that holds
 * one reaches only its peer. Any other socket can: an IP socket disconnected with
 * `connect(AF_UNSPEC)` connects again anywhere in the network namespace it was made in,
 * the caller's, whatever the sandbox's network scope; a datagram socket sends to any
 * address; a listening one accepts the host's connections.
 *
 * The kernel writes a bound socket's name as it is, newlines included, and any process of
 * the namespace (a workspace-scope run without a network scope, any local user) can bind
 * an abstract name that holds a whole line naming the inode of the caller's TCP socket as
 * connected. So a line counts only where no name can have made it: right after the header
 * or after a record without a name, both of record form. A name holds at most 107 bytes
 * after a newline, too few for two lines of record form (58 bytes each, and a line of a
 * name's start ends with the space before it): a made-up line is never preceded by one of
 * record form without a name. A genuine record that follows a named one is left out too,
 * and its socket relayed like any other, which costs a copy, not an escape.
 */
export function connectedUnixStreamInodes(procNetUnix: string): Set<number> {
  const inodes = new Set<number>();
  const lines = procNetUnix.split("\n");
  let previousUnnamed = true; // the header
  for (const line of lines.slice(1)) {
    const record = recordFields(line);
    const trusted = previousUnnamed;
    previousUnnamed = record !== null && !record.named;
    if (!record || !trusted) continue;
    if (!CONNECTION_TYPES.has(record.type) || record.state !== CONNECTED) continue;
    if (record.flags & LISTENING) continue;
    inodes.add(record.inode);
  }
  return inodes;
}
