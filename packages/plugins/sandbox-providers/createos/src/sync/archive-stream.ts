import type { Readable } from "node:stream";
import * as tar from "tar";

/** Relays `source`, adding the bytes that pass to `count`. */
export async function* countBytes(
  source: AsyncIterable<Uint8Array>,
  count: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    count(chunk.byteLength);
    yield chunk;
  }
}

/**
 * A host directory as a tar stream, made as it is read (nothing is held whole). `accept`
 * sees every path relative to `cwd` (`./a/b`) before it is added; a refused directory is
 * not descended into.
 */
export function packDirectory(
  cwd: string,
  follow: boolean,
  accept: (path: string, isDirectory: boolean) => boolean,
): AsyncIterable<Uint8Array> {
  return tar.c(
    {
      cwd,
      portable: true,
      follow,
      // tar's default reads 16 MiB of a file at a time; a smaller window keeps the process small.
      maxReadSize: 1024 * 1024,
      filter: (path, stat) => accept(path, "isDirectory" in stat && stat.isDirectory()),
    },
    ["."],
  );
}

/**
 * Extracts a tar stream into `cwd` as it arrives. `accept` is asked about every entry
 * before anything of it is written; returning false skips it, calling `halt` also stops
 * the read (the source is destroyed). Either way this resolves only once the entries
 * already accepted are on disk, so the caller can remove `cwd` without racing a late write.
 */
export async function extractArchive(
  source: Readable,
  cwd: string,
  accept: (entry: tar.ReadEntry, halt: () => void) => boolean,
): Promise<void> {
  const errors: unknown[] = [];
  let ended = false;
  const unpack = tar.x({
    cwd,
    strict: true,
    preservePaths: false,
    preserveOwner: false,
    filter: (_path, entry) => accept(entry as tar.ReadEntry, halt),
  });
  const closed = new Promise<void>((resolve) => unpack.once("close", () => resolve()));
  unpack.on("error", (error: unknown) => {
    errors.push(error);
    halt();
  });
  function end(): void {
    if (ended) return;
    ended = true;
    unpack.end();
  }
  function halt(): void {
    source.unpipe(unpack);
    source.destroy();
    end();
  }
  source.once("error", (error) => {
    errors.push(error);
    end();
  });
  source.once("end", end);
  source.pipe(unpack, { end: false });
  await closed;
  if (errors.length > 0) throw errors[0];
}
