import type { ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";

/**
 * The relay for a stdio descriptor that is a socket the program must not hold, or a stdin
 * pipe (`stdio-route.ts`): through the event loop, as `process.stdin`, `process.stdout` and
 * `process.stderr` read and write it, never in the thread pool. A socket may be
 * non-blocking (a Node parent's is), where a thread-pool write fails with `EAGAIN` and
 * drops output, and its reads wait for the peer, where a pending thread-pool read would
 * keep this process alive after the run. None of them closes the descriptor.
 */

/** Feeds the child's stdin pipe from this process's stdin socket (or pipe) until the child is gone. */
export function feedFromStdinSocket(child: ChildProcess, input: Writable): void {
  const source = process.stdin;
  const failed = (): void => {
    input.end();
  };
  source.once("error", failed);
  input.on("error", () => source.unpipe(input));
  source.pipe(input);
  child.once("close", () => {
    source.off("error", failed);
    source.unpipe(input);
    // Stops reading: a paused stdin keeps nothing alive.
    source.pause();
  });
}

/** Copies `output` to this process's stdout or stderr socket; resolves once it is flushed there (or failed). */
export function copyToStdioSocket(output: Readable, fd: 1 | 2): Promise<void> {
  const sink = fd === 1 ? process.stdout : process.stderr;
  return new Promise<void>((resolve) => {
    const failed = (): void => {
      // Keep draining, so the program is never blocked on a descriptor that failed.
      output.unpipe(sink);
      output.resume();
      resolve();
    };
    sink.once("error", failed);
    output.pipe(sink, { end: false });
    // Closed once drained, without an end (close-drained-output.ts): what was piped is
    // queued on the sink, and an empty write's callback comes once it is all written.
    output.once("close", () => {
      sink.write("", () => {
        sink.off("error", failed);
        resolve();
      });
    });
  });
}
