import type { FileHandle } from "node:fs/promises";
import { CreateosError } from "@paperclipai/errors";

/** A file is read this much at a time: a small window keeps the process small. */
const READ_BYTES = 1024 * 1024;

/** A source file that shrank while it was read: what was sent would lie about it. */
function sourceChanged(entry: string): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_SOURCE_CHANGED",
    "CreateOS sync in read a host file that changed while it was uploaded.",
    { retryable: true, details: { entry: entry.slice(0, 200) } },
  );
}

/**
 * `size` bytes of a file from its descriptor, from its start: what it grew by meanwhile is
 * left out (a log still written is sent as it was, not streamed until a deadline), and a file
 * that ends before `size` is refused (`ERR_CREATEOS_SYNC_SOURCE_CHANGED`, `entry` naming it).
 */
export async function* readSize(handle: FileHandle, size: number, entry: string): AsyncGenerator<Uint8Array> {
  let position = 0;
  while (position < size) {
    const chunk = Buffer.allocUnsafe(Math.min(READ_BYTES, size - position));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) throw sourceChanged(entry);
    position += bytesRead;
    yield chunk.subarray(0, bytesRead);
  }
}

/** The whole file as large as it is when the read starts (`readSize`). */
export async function* readAsOpened(handle: FileHandle, entry: string): AsyncGenerator<Uint8Array> {
  const { size } = await handle.stat();
  yield* readSize(handle, size, entry);
}
