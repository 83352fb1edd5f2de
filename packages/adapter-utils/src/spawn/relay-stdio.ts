import type { ChildProcess } from "node:child_process";
import { createReadStream, createWriteStream, fstatSync } from "node:fs";
import type { Readable } from "node:stream";
import { isatty } from "node:tty";
import { copyToStdioSocket, feedFromStdinSocket } from "./relay-stdio-sockets.js";
import { type StdioKind, type StdioRoute, stdioRoute } from "./stdio-route.js";

function stdioKind(fd: number): StdioKind {
  try {
    if (isatty(fd)) return "terminal";
    const stat = fstatSync(fd);
    if (stat.isFIFO()) return "pipe";
    if (stat.isSocket()) return "socket";
    if (stat.isFile()) return "file";
    if (stat.isDirectory()) return "directory";
    return "device";
  } catch {
    return "closed";
  }
}

/** The route of this process's stdin, stdout and stderr, for a run on them (`stdio-route.ts`). */
export function inheritedStdioRoutes(): StdioRoute[] {
  return ([0, 1, 2] as const).map((fd) => stdioRoute(stdioKind(fd), fd));
}

/**
 * Feeds the child's stdin pipe from this process's descriptor 0, and copies its output
 * pipes to descriptors 1 and 2, for each relayed one; the descriptors stay open. Resolves
 * once all the output has been written (or its descriptor failed).
 */
export function relayStdio(child: ChildProcess, routes: readonly StdioRoute[]): Promise<void> {
  if (routes[0] === "relay" && child.stdin) {
    const input = child.stdin;
    const stdin = fstatSync(0);
    // A pipe may be non-blocking as a socket may (a Node parent's), and its writer may never close it.
    if (stdin.isSocket() || stdin.isFIFO()) feedFromStdinSocket(child, input);
    else {
      const source = createReadStream("", { fd: 0, autoClose: false });
      source.on("error", () => input.end());
      input.on("error", () => source.destroy());
      source.pipe(input);
      child.once("close", () => source.destroy());
    }
  }
  const written = ([1, 2] as const).map((fd) => {
    const output = child.stdio[fd] as Readable | null;
    if (routes[fd] !== "relay" || !output) return Promise.resolve();
    if (fstatSync(fd).isSocket()) return copyToStdioSocket(output, fd);
    const sink = createWriteStream("", { fd, autoClose: false });
    output.pipe(sink);
    // Closed once drained, without an end (close-drained-output.ts): the relay ends too.
    output.once("close", () => {
      if (!sink.writableEnded) sink.end();
    });
    return new Promise<void>((resolve) => {
      sink.once("finish", resolve);
      sink.once("error", () => {
        // Keep draining, so the program is never blocked on a descriptor that failed.
        output.unpipe(sink);
        output.resume();
        resolve();
      });
    });
  });
  return Promise.all(written).then(() => {});
}
