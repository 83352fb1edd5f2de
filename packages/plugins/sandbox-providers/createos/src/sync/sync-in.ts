import { randomUUID } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { posix } from "node:path";
import { CreateosError } from "@paperclipai/errors";
import type {
  PluginEnvironmentSyncInParams,
  PluginEnvironmentSyncResult,
  PluginPostUploadCommand,
  PluginSyncFileMapping,
} from "@paperclipai/plugin-sdk";
import { execute } from "../execute/execute.js";
import { WORKSPACE_PATH } from "../lease/lease-metadata.js";
import { putFileStream } from "../lease/sandbox-api.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { countBytes } from "./archive-stream.js";
import { packDirectory } from "./checked-pack.js";
import { compileExcludes } from "./exclude-glob.js";
import { assertLinksStayInside, PackedLinkGuard } from "./followed-links.js";
import { readAsOpened } from "./read-size.js";
import { discardStaged } from "./remote-leftovers.js";
import { assertSourceDirectory, openSourceFile } from "./source-file.js";
import { extractScript } from "./staged-scripts.js";
import { confineSandboxEntry, confineSandboxPath, hostPath } from "./sync-paths.js";
import {
  modeText,
  type SyncScope,
  syncStep,
  type Transfer,
  transferEach,
  withinSyncScope,
} from "./sync-scope.js";

/** Host files and directories into the sandbox (streamed tar for directories), then the post-upload commands. */
export function syncIn(
  runtime: PluginRuntime,
  params: PluginEnvironmentSyncInParams,
): Promise<PluginEnvironmentSyncResult> {
  return withinSyncScope(runtime, params, "sync in", (scope) => syncInScoped(scope, params));
}

async function syncInScoped(
  scope: SyncScope,
  params: PluginEnvironmentSyncInParams,
): Promise<PluginEnvironmentSyncResult> {
  // Links followed out of a source directory are refused before any byte of any operation moves.
  for (const operation of params.operations) {
    for (const file of operation.files) {
      if (file.kind !== "directory" || file.followSymlinks !== true) continue;
      const source = hostPath(file.sourcePath, "sourcePath", operation.operationId);
      await assertLinksStayInside(source, compileExcludes(file.exclude), operation.operationId);
    }
  }
  return transferEach(params.operations, async (operation, transfer) => {
    // Check every path of the operation before moving any byte.
    const mappings = operation.files.map((file) => ({
      file,
      source: hostPath(file.sourcePath, "sourcePath", operation.operationId),
      // A directory may be the workspace itself (the host syncs its workspace there): merged into, as upstream does.
      target:
        file.kind === "directory"
          ? confineSandboxPath(file.targetPath, "targetPath", operation.operationId)
          : confineSandboxEntry(file.targetPath, "targetPath", operation.operationId),
    }));
    const commands = (operation.postUploadCommands ?? []).map((command) => ({
      command,
      cwd: confineSandboxPath(command.cwd ?? WORKSPACE_PATH, "postUploadCommands.cwd", operation.operationId),
    }));
    for (const { file, source } of mappings) {
      if (file.kind === "directory") await assertSourceDirectory(source, operation.operationId);
    }
    for (const { file, source, target } of mappings) {
      if (file.kind === "directory")
        await uploadDirectory(scope, file, source, target, transfer, operation.operationId);
      else await uploadFile(scope, file, source, target, transfer, operation.operationId);
    }
    for (const [index, { command, cwd }] of commands.entries()) {
      await runPostUploadCommand(scope, command, cwd, operation.operationId, index);
    }
  });
}

/**
 * Streams `makeBody()` to `remotePath`. The body is made again for every attempt the
 * client makes; only the attempt that succeeded is counted.
 */
async function upload(
  scope: SyncScope,
  remotePath: string,
  makeBody: (attempt: Transfer) => AsyncIterable<Uint8Array>,
): Promise<Transfer> {
  let attempt: Transfer = { files: 0, bytes: 0 };
  await putFileStream(
    scope.client,
    scope.sandboxId,
    remotePath,
    () => {
      const current: Transfer = { files: 0, bytes: 0 };
      attempt = current;
      return countBytes(makeBody(current), (bytes) => {
        current.bytes += bytes;
      });
    },
    scope.signal,
  );
  return attempt;
}

async function uploadFile(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
  operationId: string,
): Promise<void> {
  const handle = await openSourceFile(source, operationId);
  try {
    const sent = await uploadOpenedFile(scope, file, handle, target);
    transfer.files += 1;
    transfer.bytes += sent.bytes;
  } finally {
    await handle.close();
  }
}

async function uploadOpenedFile(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  handle: FileHandle,
  target: string,
): Promise<Transfer> {
  const dir = posix.dirname(target);
  const temp = `${dir}/.paperclip-sync-${randomUUID()}`;
  await syncStep(scope, "sync in: directory", "/bin/mkdir", ["-p", dir]);
  try {
    // Every attempt reads the file from its start, through the descriptor that was judged, as
    // large as it is then: a file still written to is sent as it was, not until the deadline.
    const sent = await upload(scope, temp, () => readAsOpened(handle, posix.basename(file.sourcePath)));
    // The mode is applied to the staged file, then it is promoted with a rename.
    await syncStep(scope, "sync in: promote file", "/bin/sh", [
      "-c",
      'if [ -n "$1" ]; then chmod "$1" "$2"; fi && mv -f -- "$2" "$3"',
      "sh",
      modeText(file.mode),
      temp,
      target,
    ]);
    return sent;
  } catch (error) {
    await discardStaged(scope, [temp]);
    throw error;
  }
}

async function uploadDirectory(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
  operationId: string,
): Promise<void> {
  // The workspace root cannot be replaced (its parent is outside, and it holds the lease marker).
  const intoRoot = target === WORKSPACE_PATH;
  const dir = intoRoot ? "/tmp" : posix.dirname(target);
  const id = randomUUID();
  const staged: StagedTree = {
    archive: `${dir}/.paperclip-sync-${id}.tar`,
    directory: `${dir}/.paperclip-sync-${id}.d`,
  };
  await syncStep(scope, "sync in: directory", "/bin/mkdir", ["-p", intoRoot ? target : dir]);
  try {
    const sent = await stageAndExtract(scope, file, source, target, staged, operationId);
    transfer.files += sent.files;
    transfer.bytes += sent.bytes;
  } catch (error) {
    await discardStaged(scope, [staged.archive, staged.directory]);
    throw error;
  }
}

/** Where a directory's archive is uploaded, and where it is extracted before it replaces the target. */
interface StagedTree {
  readonly archive: string;
  readonly directory: string;
}

/** Uploads the directory as an archive and extracts it over `target` (see `uploadDirectory`). */
async function stageAndExtract(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  staged: StagedTree,
  operationId: string,
): Promise<Transfer> {
  const excluded = compileExcludes(file.exclude);
  // Without `followSymlinks` a link is packed as a link; what is read still has to be inside the
  // source (a directory on the way swapped for a link by another host process is not).
  const links = new PackedLinkGuard(source);
  const sent = await upload(scope, staged.archive, (attempt) =>
    packDirectory(source, file.followSymlinks === true, {
      excluded,
      allows: (path, opened) => links.allows(path, opened),
      packed: (_path, isDirectory) => {
        if (!isDirectory) attempt.files += 1;
      },
    }),
  );
  links.assertNoneRefused(operationId);
  await syncStep(scope, "sync in: extract", "/bin/sh", [
    "-c",
    extractScript(target === WORKSPACE_PATH),
    "sh",
    staged.archive,
    staged.directory,
    target,
    modeText(file.mode),
  ]);
  return sent;
}

async function runPostUploadCommand(
  scope: SyncScope,
  command: PluginPostUploadCommand,
  cwd: string,
  operationId: string,
  index: number,
): Promise<void> {
  // Verbatim: the adapter-authored command is run as given, never rewritten or extended.
  const result = await scope.runtime.leases.track(scope.sandboxId, scope.signal, (signal) =>
    execute(
      scope.client,
      {
        sandboxId: scope.sandboxId,
        command: "/bin/bash",
        args: ["-c", command.command],
        cwd,
        // Without its own deadline a command gets the config's, as the execute hook's do.
        timeoutMs:
          command.timeoutMs !== undefined && command.timeoutMs > 0
            ? command.timeoutMs
            : scope.config.timeoutMs,
        signal,
      },
      scope.runtime.tuning(scope.config),
      { block: (reason) => scope.runtime.leases.block(scope.sandboxId, reason) },
    ),
  );
  if (result.exitCode !== 0 || result.timedOut) {
    throw new CreateosError("ERR_CREATEOS_SYNC_COMMAND_FAILED", "CreateOS transfer command failed.", {
      details: {
        operationId: operationId.slice(0, 100),
        index,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
      },
    });
  }
}
