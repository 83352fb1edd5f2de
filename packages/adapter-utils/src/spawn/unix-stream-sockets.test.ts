import { describe, expect, it } from "vitest";
import { connectedUnixStreamInodes } from "./unix-stream-sockets.js";

const HEADER = "Num       RefCount Protocol Flags    Type St Inode Path";

/** One `/proc/net/unix` line: flags, type and state in its hexadecimal spelling. */
const line = (flags: string, type: string, state: string, inode: number, path = ""): string =>
  `0000000074346c24: 00000003 00000000 ${flags} ${type} ${state} ${inode} ${path}`.trimEnd();

describe("connectedUnixStreamInodes", () => {
  it("keeps connected stream and seqpacket sockets, named or not", () => {
    const table = [
      HEADER,
      line("00000000", "0001", "03", 11),
      line("00000000", "0005", "03", 12),
      line("00000000", "0001", "03", 13, "/run/systemd/journal/stdout"),
    ].join("\n");
    expect([...connectedUnixStreamInodes(table)]).toEqual([11, 12, 13]);
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
