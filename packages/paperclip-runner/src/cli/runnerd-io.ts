import type { Readable, Writable } from "node:stream";

/** The standard streams the daemon talks through (the process's own, or a test's). */
export interface RunnerdIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}
