import { randomUUID } from "node:crypto";
import { chmod, mkdir, rm } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { Readable } from "node:stream";
import { PaperclipError } from "@paperclipai/errors";
import type {
  PluginEnvironmentSyncOutParams,
  PluginEnvironmentSyncResult,
  PluginSyncFileMapping,
} from "@paperclipai/plugin-sdk";
import { invalidResponse } from "../client/envelope.js";
import { getFileStream } from "../lease/sandbox-api.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { abandonDownload } from "./abandon-download.js";
import {
  beyondEntryLimit,
  beyondExtractionLimit,
  checkArchiveEntry,
  hostEntryMode,
} from "./archive-entry.js";
import { countBytes, exactBytes, extractArchive, plainTar } from "./archive-stream.js";
import { compileExcludes } from "./exclude-glob.js";
import { ExtractedLinks } from "./extracted-links.js";
import { releaseStaging } from "./held-staging.js";
import { makeStagingDir, promoteDirectory, writeHostFileAtomic } from "./host-files.js";
import { entryFootprint, extractionRoom } from "./host-room.js";
import { discardStaged } from "./remote-leftovers.js";
import { sandboxPruneArgs } from "./sandbox-prune.js";
import { assertExtractedLinksInside } from "./staged-links.js";
import { confineSandboxPath, hostPath } from "./sync-paths.js";
import {
  missingSource,
  type SyncScope,
  syncStep,
  type Transfer,
  transferEach,
  withinSyncScope,
} from "./sync-scope.js";

/**
 * Sandbox files and directories back to the host, streamed: each archive entry is checked
 * before it is written into a private staging directory, modes are set before promotion,
 * single files are written atomically.
 */
export function syncOut(
  runtime: PluginRuntime,
  params: PluginEnvironmentSyncOutParams,
): Promise<PluginEnvironmentSyncResult> {
  return withinSyncScope(runtime, params, "sync out", (scope) => syncOutScoped(scope, params));
}

async function syncOutScoped(
  scope: SyncScope,
  params: PluginEnvironmentSyncOutParams,
): Promise<PluginEnvironmentSyncResult> {
  return transferEach(params.operations, async (operation, transfer) => {
    const mappings = operation.files.map((file) => ({
      file,
      source: confineSandboxPath(file.sourcePath, "sourcePath", operation.operationId),
      target: hostPath(file.targetPath, "targetPath", operation.operationId),
    }));
    for (const { file, source, target } of mappings) {
      if (file.kind === "directory") await downloadDirectory(scope, file, source, target, transfer);
      else await downloadFile(scope, file, source, target, transfer);
    }
  });
}

async function downloadFile(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
): Promise<void> {
  const body = await getFileStream(scope.client, scope.sandboxId, source, scope.signal);
  if (body === null) throw missingSource();
  let bytes = 0;
  try {
    await mkdir(dirname(target), { recursive: true });
    const budget = (await extractionRoom(dirname(target))).bytes;
    await writeHostFileAtomic(
      target,
      countBytes(body, (count) => {
        bytes += count;
        if (bytes > budget) throw beyondExtractionLimit(basename(source), budget);
      }),
      file.mode,
    );
  } catch (error) {
    // A host step that failed before the body was read (or while it was) leaves it open otherwise.
    await abandonDownload(body);
    throw error;
  }
  transfer.files += 1;
  transfer.bytes += bytes;
}

/** Packs in the sandbox, then prints the archive's size, which the download must match. */
const PACK_SCRIPT = 'a="$1"; d="$2"; shift 2; tar -c -f "$a" -C "$d" "$@" . && wc -c < "$a"';

/** An archive that arrived short is read again, this many times in all, before the sync fails. */
const ARCHIVE_READS = 2;

async function downloadDirectory(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
): Promise<void> {
  const remoteArchive = `/tmp/paperclip-sync-${randomUUID()}.tar`;
  try {
    // Excludes are applied here on the host while extracting, so `exclude` means the same
    // in both directions; the sandbox's tar only skips the literal names (sandbox-prune.ts).
    const packed = await syncStep(scope, "sync out: pack", "/bin/sh", [
      "-c",
      PACK_SCRIPT,
      "sh",
      remoteArchive,
      source,
      ...(file.followSymlinks === true ? ["--dereference"] : []),
      ...sandboxPruneArgs(file.exclude),
    ]);
    const archiveBytes = packedSize(packed.stdout);
    for (let read = 1; ; read++) {
      try {
        transfer.files += await extractInto(scope, file, remoteArchive, archiveBytes, target);
        transfer.bytes += archiveBytes;
        return;
      } catch (error) {
        if (read >= ARCHIVE_READS || !isIncomplete(error)) throw error;
      }
    }
  } finally {
    await discardStaged(scope, [remoteArchive]);
  }
}

function packedSize(stdout: string): number {
  const size = /^\s*(\d{1,15})\s*$/.exec(stdout)?.[1];
  if (size === undefined) throw invalidResponse();
  return Number(size);
}

function isIncomplete(error: unknown): boolean {
  return (
    PaperclipError.is(error) &&
    error.code === "ERR_CREATEOS_SYNC_ARCHIVE_INVALID" &&
    error.details?.reason === "incomplete"
  );
}

/**
 * Reads the sandbox's archive into a private staging directory, every entry checked before it
 * is written (its path, its type, and that it keeps the host's file system within its extraction
 * limit, in bytes and in inodes), then promotes it to `target`; returns the files extracted. On
 * any failure the staging directory is removed and `target` is untouched.
 */
async function extractInto(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  remoteArchive: string,
  archiveBytes: number,
  target: string,
): Promise<number> {
  const staging = await makeStagingDir(target);
  let files = 0;
  let refusal: unknown;
  let body: Readable | null = null;
  try {
    // The old tree is removed only after the promotion: the room is taken with it still there.
    const room = await extractionRoom(staging);
    body = await getFileStream(scope.client, scope.sandboxId, remoteArchive, scope.signal);
    if (body === null) throw missingSource();
    const excluded = compileExcludes(file.exclude);
    let extractedBytes = 0;
    let extractedEntries = 0;
    const links = new ExtractedLinks();
    await extractArchive(Readable.from(plainTar(exactBytes(body, archiveBytes))), staging, (entry, halt) => {
      if (refusal !== undefined) return false;
      try {
        // An excluded entry is never written, so its shape does not matter: the host excludes
        // `.paperclip-runtime` from every restore, where a runner's tools link by absolute path.
        if (excluded(entry.path)) return false;
        const path = checkArchiveEntry({ path: entry.path, type: entry.type, linkpath: entry.linkpath });
        if (entry.type === "SymbolicLink") links.add(path);
        if (entry.mode !== undefined) entry.mode = hostEntryMode(entry.mode);
        extractedBytes += entryFootprint(entry.type, entry.size, room.blockBytes);
        if (extractedBytes > room.bytes) throw beyondExtractionLimit(path, room.bytes);
        if (++extractedEntries > room.entries) throw beyondEntryLimit(path, room.entries);
      } catch (error) {
        refusal = error;
        halt();
        return false;
      }
      if (entry.type !== "Directory") files += 1;
      return true;
    });
    if (refusal !== undefined) throw refusal;
    await assertExtractedLinksInside(staging, links.paths);
    await chmod(staging, file.mode === undefined ? 0o755 : file.mode & 0o7777);
    await promoteDirectory(staging, target);
  } catch (error) {
    if (body !== null) await abandonDownload(body);
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    releaseStaging(staging);
  }
  return files;
}
