import type { Readable } from "node:stream";
import { CreateosError } from "@paperclipai/errors";
import * as tar from "tar";
import { unsafeEntry } from "./archive-entry.js";

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

/** A synced-out archive that did not arrive as packed, or that tar cannot read. */
export function archiveInvalid(
  reason: "incomplete" | "malformed",
  details: { expectedBytes: number; receivedBytes: number } | { tarCode: string },
): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_ARCHIVE_INVALID",
    `CreateOS sync out received an unreadable archive (${reason}).`,
    { retryable: reason === "incomplete", details: { reason, ...details } },
  );
}

/** Relays `source`, failing with an `incomplete` archive error unless it carries exactly `expected` bytes. */
export async function* exactBytes(
  source: AsyncIterable<Uint8Array>,
  expected: number,
): AsyncGenerator<Uint8Array> {
  let received = 0;
  for await (const chunk of source) {
    received += chunk.byteLength;
    if (received > expected)
      throw archiveInvalid("incomplete", { expectedBytes: expected, receivedBytes: received });
    yield chunk;
  }
  if (received !== expected)
    throw archiveInvalid("incomplete", { expectedBytes: expected, receivedBytes: received });
}

/**
 * Relays `source`, failing with a `malformed` archive error unless its first block is a tar header
 * (its checksum right). The plugin's own pack writes a plain tar; tar on the host would take a
 * gzip or zstd stream too, and then the bytes checked against the packed size would say nothing of
 * the work an extraction does: a few megabytes that inflate to gigabytes of entries.
 */
export async function* plainTar(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  let checked = false;
  for await (const chunk of source) {
    if (checked) {
      yield chunk;
      continue;
    }
    held.push(chunk);
    heldBytes += chunk.byteLength;
    if (heldBytes < 512) continue;
    const first = Buffer.concat(held);
    if (!new tar.Header(first.subarray(0, 512)).cksumValid)
      throw archiveInvalid("malformed", { tarCode: "TAR_BAD_ARCHIVE" });
    checked = true;
    yield first;
  }
  if (!checked) throw archiveInvalid("malformed", { tarCode: "TAR_BAD_ARCHIVE" });
}

// What tar reports about the archive itself; its other errors are the host's (a full disk).
const MALFORMED_ARCHIVE = new Set([
  "TAR_BAD_ARCHIVE",
  "TAR_ENTRY_INVALID",
  "TAR_ABORT",
  "TAR_ENTRY_UNSUPPORTED",
]);

/**
 * What the file system answers when an entry cannot be written over what earlier entries of the
 * same archive made: a hard link to a directory (`EPERM`), a link or file in place of a filled
 * directory (`ENOTEMPTY`), an entry below a file (`ENOTDIR`), below a directory the archive
 * made unwritable (`EACCES`), or deeper than a path can be (`ENAMETOOLONG`, `ELOOP`). The
 * archive's shape, not the host's state (a full disk stays the host's error).
 */
const ARCHIVE_SHAPED = new Set([
  "EPERM",
  "ENOTEMPTY",
  "EEXIST",
  "EISDIR",
  "ENOTDIR",
  "EACCES",
  "ENAMETOOLONG",
  "ELOOP",
]);

function readFailure(error: unknown): unknown {
  const { tarCode, code, entry } = (error ?? {}) as {
    tarCode?: unknown;
    code?: unknown;
    entry?: { path?: unknown };
  };
  const entryPath = typeof entry?.path === "string" ? entry.path : "";
  // tar refuses to write through a link (`a -> .`, then `a/x`) or to hard-link one.
  if (code === "TAR_SYMLINK_ERROR") return unsafeEntry(entryPath);
  if (tarCode === "TAR_ENTRY_ERROR" && typeof code === "string" && ARCHIVE_SHAPED.has(code))
    return unsafeEntry(entryPath);
  return typeof tarCode === "string" && MALFORMED_ARCHIVE.has(tarCode)
    ? archiveInvalid("malformed", { tarCode })
    : error;
}

/**
 * Extracts a tar stream into `cwd` as it arrives. `accept` is asked about every entry
 * before anything of it is written; returning false skips it, calling `halt` also stops
 * the read (the source is destroyed) and leaves the reason to the caller: tar's complaint
 * about the cut archive is not reported. Either way this resolves only once the entries
 * already accepted are on disk, so the caller can remove `cwd` without racing a late write.
 * A source's error comes first; an archive tar cannot read is `ERR_CREATEOS_SYNC_ARCHIVE_INVALID`.
 */
export async function extractArchive(
  source: Readable,
  cwd: string,
  accept: (entry: tar.ReadEntry, halt: () => void) => boolean,
): Promise<void> {
  const errors: unknown[] = [];
  let ended = false;
  let halted = false;
  const unpack = tar.x({
    cwd,
    strict: true,
    preservePaths: false,
    preserveOwner: false,
    filter: (_path, entry) => accept(entry as tar.ReadEntry, halt),
  });
  const closed = new Promise<void>((resolve) => unpack.once("close", () => resolve()));
  unpack.on("error", (error: unknown) => {
    if (!halted) errors.push(readFailure(error));
    stop();
  });
  function end(): void {
    if (ended) return;
    ended = true;
    unpack.end();
  }
  function stop(): void {
    source.unpipe(unpack);
    source.destroy();
    end();
  }
  function halt(): void {
    halted = true;
    stop();
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
