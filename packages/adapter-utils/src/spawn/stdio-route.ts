/** What one of this process's stdio descriptors is, as `fstat` and `isatty` tell. */
/**
 * `socket` is a connected Unix stream or seqpacket socket (`unix-stream-sockets.ts`);
 * `reconnectable-socket` any other: an IP, datagram, listening or unconnected socket, or one
 * the caller's network namespace does not list.
 */
export type StdioKind =
  | "terminal"
  | "pipe"
  | "socket"
  | "reconnectable-socket"
  | "file"
  | "directory"
  | "device"
  | "closed";

/** `inherit`: the program gets the descriptor itself; `relay`: a pipe this process feeds or drains. */
export type StdioRoute = "inherit" | "relay";

/**
 * How a run on the caller's stdio (`stdio: "inherit"`) connects one descriptor (pure).
 * A program that holds a descriptor of a file can open it again through
 * `/proc/self/fd/<n>` with any access the file's modes allow, because that link leads
 * to the host's file, not to the descriptor: `< notes.txt` would hand it a host file to
 * rewrite, `>> app.log` one to read, wherever it lies. So a file, a directory or a
 * device that is no terminal reaches the program only through a pipe; a terminal
 * (the CLI's purpose: an interactive program), a pipe and a connected Unix stream socket,
 * which reopen as the same object or not at all, are passed on. A socket that can be
 * connected again goes through a pipe too: a TCP socket of the caller's (`> /dev/tcp/…`,
 * inetd, `socat EXEC:`), disconnected with `connect(AF_UNSPEC)`, connected anywhere the
 * host's network reaches, from a sandbox whose network was denied.
 */
export function stdioRoute(kind: StdioKind): StdioRoute {
  return kind === "file" || kind === "directory" || kind === "device" || kind === "reconnectable-socket"
    ? "relay"
    : "inherit";
}
