import { randomUUID } from "node:crypto";
import { chmod, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import type {
  PluginEnvironmentSyncOutParams,
  PluginEnvironmentSyncResult,
  PluginSyncFileMapping,
} from "@paperclipai/plugin-sdk";
import { getFileStream } from "../lease/sandbox-api.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { checkArchiveEntry } from "./archive-entry.js";
import { countBytes, extractArchive } from "./archive-stream.js";
import { compileExcludes } from "./exclude-glob.js";
import { makeStagingDir, promoteDirectory, writeHostFileAtomic } from "./host-files.js";
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
  await writeHostFileAtomic(
    target,
    countBytes(body, (count) => {
      bytes += count;
    }),
    file.mode,
  );
  transfer.files += 1;
  transfer.bytes += bytes;
}

async function downloadDirectory(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
): Promise<void> {
  const remoteArchive = `/tmp/paperclip-sync-${randomUUID()}.tar`;
  // Excludes are applied here on the host while extracting, so `exclude` means the same
  // in both directions (the sandbox's tar never interprets a pattern).
  await syncStep(scope, "sync out: pack", "/bin/sh", [
    "-c",
    'a="$1"; d="$2"; shift 2; exec tar -c -f "$a" -C "$d" "$@" .',
    "sh",
    remoteArchive,
    source,
    ...(file.followSymlinks === true ? ["--dereference"] : []),
  ]);
  try {
    const body = await getFileStream(scope.client, scope.sandboxId, remoteArchive, scope.signal);
    if (body === null) throw missingSource();
    const excluded = compileExcludes(file.exclude);
    const staging = await makeStagingDir(target);
    let files = 0;
    let bytes = 0;
    let unsafe: unknown;
    try {
      const counted = Readable.from(
        countBytes(body, (count) => {
          bytes += count;
        }),
      );
      await extractArchive(counted, staging, (entry, halt) => {
        if (unsafe !== undefined) return false;
        try {
          checkArchiveEntry({ path: entry.path, type: entry.type, linkpath: entry.linkpath });
        } catch (error) {
          unsafe = error;
          halt();
          return false;
        }
        if (excluded(entry.path)) return false;
        if (entry.type !== "Directory") files += 1;
        return true;
      });
      if (unsafe !== undefined) throw unsafe;
      await chmod(staging, file.mode === undefined ? 0o755 : file.mode & 0o7777);
      await promoteDirectory(staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    transfer.files += files;
    transfer.bytes += bytes;
  } finally {
    await syncStep(scope, "sync out: clean up", "/bin/rm", ["-f", "--", remoteArchive]).catch(
      () => undefined,
    );
  }
}
