import { describe, expect, it } from "vitest";
import { connectedUnixStreamInodes } from "./unix-stream-sockets.js";

const HEADER = "Num       RefCount Protocol Flags    Type St Inode Path";

/** One `/proc/net/unix` record as the kernel writes it: flags, type and state in hex, the inode 5 wide. */
const line = (flags: string, type: string, state: string, inode: number, path?: string): string =>
  `0000000074346c24: 00000003 00000000 ${flags} ${type} ${state} ${String(inode).padStart(5)}${path === undefined ? "" : ` ${path}`}`;

describe("connectedUnixStreamInodes", () => {
  it("keeps connected stream and seqpacket sockets, named or not", () => {
    const table = [
      HEADER,
      line("00000000", "0001", "03", 11),
      line("00000000", "0005", "03", 12),
      line("00000000", "0001", "03", 13, "/run/systemd/journal/stdout"),
      line("00000000", "0001", "03", 14),
    ].join("\n");
    // 14 follows a named record, whose name could have made its line: left out, so relayed.
    expect([...connectedUnixStreamInodes(table)]).toEqual([11, 12, 13]);
  });

  it("takes no line that a socket's name could have made", () => {
    // A name is written as it is, newlines included: an abstract one (NUL written as @),
    // a path, and one whose first byte is a newline, each holding a record naming 31.
    const forged = line("00000000", "0001", "03", 31);
    const table = [
      HEADER,
      line("00010000", "0001", "01", 22, `@x\n${forged}`),
      line("00010000", "0001", "01", 23, `/tmp/s\n${forged} @@@@`),
      line("00010000", "0001", "01", 24, `\n${forged}`),
      // Nor a short one that passes for the record before it.
      line("00010000", "0001", "01", 26, `@\n0000000000000000: 0 0 0 0001 03 7\n${forged}`),
    ].join("\n");
    expect(connectedUnixStreamInodes(table).size).toBe(0);
    // Two lines of record form, each of them 58 bytes at least, do not fit in one name (108).
    expect(Buffer.byteLength(`@\n${forged}\n${forged}`)).toBeGreaterThan(108);
  });

  it("leaves out what can reach another peer: datagram, listening and unconnected sockets", () => {
    const table = [
      HEADER,
      line("00000000", "0002", "03", 21),
      line("00010000", "0001", "01", 22, "/tmp/listening.sock"),
      line("00000000", "0001", "01", 23),
      "",
    ].join("\n");
    expect(connectedUnixStreamInodes(table).size).toBe(0);
  });

  it("reads nothing from a header alone or a truncated line", () => {
    expect(connectedUnixStreamInodes(`${HEADER}\n0000000074346c24: 00000003`).size).toBe(0);
  });
});
