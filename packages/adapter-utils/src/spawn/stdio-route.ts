/** What one of this process's stdio descriptors is, as `fstat` and `isatty` tell. */
export type StdioKind = "terminal" | "pipe" | "socket" | "file" | "directory" | "device" | "closed";

/** `inherit`: the program gets the descriptor itself; `relay`: a pipe this process feeds or drains. */
export type StdioRoute = "inherit" | "relay";

/**
 * How a run on the caller's stdio (`stdio: "inherit"`) connects one descriptor (pure).
 * A program that holds a descriptor of a file can open it again through
 * `/proc/self/fd/<n>` with any access the file's modes allow, because that link leads
 * to the host's file, not to the descriptor: `< notes.txt` would hand it a host file to
 * rewrite, `>> app.log` one to read, wherever it lies. So a file, a directory or a
 * device that is no terminal reaches the program only through a pipe; a terminal
 * (the CLI's purpose: an interactive program) and an output pipe, which reopen as the same
 * object, are passed on. An input pipe is relayed: reopened for writing (the pipe's inode is
 * its creator's, the runner's uid), what the program wrote there was read after the run by
 * the caller's next reader of it, the shell that reads its script from that pipe under
 * `curl … | bash` or a here-document, which ran it on the host. A socket goes through a pipe
 * too, whatever it is: a TCP socket of the
 * caller's (`> /dev/tcp/…`, inetd, `socat EXEC:`), disconnected with `connect(AF_UNSPEC)`,
 * connected anywhere the host's network reaches, from a sandbox whose network was denied;
 * and the socket itself is shared with the caller, who writes to it again after the run,
 * so even a connected Unix one (a Node parent's stdio, journald's stream) was the
 * program's to `shutdown`: the caller's next write died of `SIGPIPE`.
 */
export function stdioRoute(kind: StdioKind, fd: 0 | 1 | 2): StdioRoute {
  if (kind === "pipe") return fd === 0 ? "relay" : "inherit";
  return kind === "file" || kind === "directory" || kind === "device" || kind === "socket"
    ? "relay"
    : "inherit";
}
