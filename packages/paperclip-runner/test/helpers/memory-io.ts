import { PassThrough } from "node:stream";
import type { RunnerdIo } from "../../src/index.js";

/** In-memory standard streams; `stdout()`/`stderr()` return everything written so far. */
export function memoryIo(): RunnerdIo & { stdoutText(): string; stderrText(): string } {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk));
  stderr.on("data", (chunk: Buffer) => err.push(chunk));
  return {
    stdin,
    stdout,
    stderr,
    stdoutText: () => Buffer.concat(out).toString("utf8"),
    stderrText: () => Buffer.concat(err).toString("utf8"),
  };
}
