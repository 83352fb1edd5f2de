import type { Stats } from "node:fs";
import { type FileHandle, stat } from "node:fs/promises";
import { CreateosError } from "@paperclipai/errors";
import { openEntry } from "./open-entry.js";

/** What a mapping's host path named instead of what its kind says. */
export type SourceType = "file" | "directory" | "fifo" | "device" | "socket";

function typeOf(judged: Stats): SourceType {
  if (judged.isFile()) return "file";
  if (judged.isDirectory()) return "directory";
  if (judged.isFIFO()) return "fifo";
  if (judged.isSocket()) return "socket";
  return "device";
}

function notFile(operationId: string, type: SourceType): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_SOURCE_NOT_FILE",
    "CreateOS sync in needs a regular file for a file mapping.",
    { details: { operationId: operationId.slice(0, 100), type } },
  );
}

/**
 * Opens a `kind: "file"` mapping's host source, which the SDK defines as a single regular file,
 * following a link the caller named. Anything else is refused unopened, as a directory sync
 * leaves such entries out: a FIFO's open would hold one of libuv's few pool threads until a
 * writer came (every later file operation and DNS lookup of the worker queues behind a few), a
 * device may never end (`/dev/zero`), and opening some devices acts. A source that does not exist
 * fails as its `stat` does.
 */
export async function openSourceFile(source: string, operationId: string): Promise<FileHandle> {
  const opened = await openEntry(source, source, true);
  if (opened?.kind === "file") return opened.handle;
  if (opened?.kind === "directory") {
    await opened.handle.close();
    throw notFile(operationId, "directory");
  }
  throw notFile(operationId, typeOf(await stat(source)));
}

/**
 * Checks, before any request, that a `kind: "directory"` mapping's host source is a directory
 * (following a link the caller named): a file mapped as one failed only after the sandbox had
 * made the target's parent, with the file system's `ENOTDIR`. A source that does not exist fails
 * as its `stat` does.
 */
export async function assertSourceDirectory(source: string, operationId: string): Promise<void> {
  const type = typeOf(await stat(source));
  if (type === "directory") return;
  throw new CreateosError(
    "ERR_CREATEOS_SYNC_SOURCE_NOT_DIRECTORY",
    "CreateOS sync in needs a directory for a directory mapping.",
    { details: { operationId: operationId.slice(0, 100), type } },
  );
}
