import { randomUUID } from "node:crypto";
import { chmod, readFile, rm } from "node:fs/promises";
import { join, posix } from "node:path";
import { CreateosApiError, CreateosError } from "@paperclipai/errors";
import type {
  PluginEnvironmentSyncInParams,
  PluginEnvironmentSyncOutParams,
  PluginEnvironmentSyncResult,
  PluginPostUploadCommand,
  PluginSyncFileMapping,
  PluginSyncOperation,
} from "@paperclipai/plugin-sdk";
import * as tar from "tar";
import type { CreateosClient } from "../client/createos-client.js";
import { execute } from "../execute/execute.js";
import { WORKSPACE_PATH } from "../lease/lease-metadata.js";
import { resolveLease } from "../lease/resolve-lease.js";
import { getFile, putFile, runStep, type ShortCommandResult } from "../lease/sandbox-api.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { checkArchiveEntry } from "./archive-entry.js";
import { compileExcludes } from "./exclude-glob.js";
import { makeStagingDir, promoteDirectory, withScratchDir, writeHostFileAtomic } from "./host-files.js";
import { confineSandboxEntry, confineSandboxPath, hostPath } from "./sync-paths.js";

interface SyncScope {
  readonly runtime: PluginRuntime;
  readonly client: CreateosClient;
  readonly sandboxId: string;
  readonly signal: AbortSignal;
}

interface Transfer {
  files: number;
  bytes: number;
}

function modeText(mode: number | undefined): string {
  return mode === undefined ? "" : (mode & 0o7777).toString(8);
}

async function openScope(
  runtime: PluginRuntime,
  params: PluginEnvironmentSyncInParams | PluginEnvironmentSyncOutParams,
): Promise<SyncScope> {
  const { client, metadata } = resolveLease(runtime, params, params.lease);
  runtime.leases.assertUsable(metadata.sandboxId);
  return { runtime, client, sandboxId: metadata.sandboxId, signal: runtime.signal };
}

function syncStep(
  scope: SyncScope,
  step: string,
  cmd: string,
  args: readonly string[],
): Promise<ShortCommandResult> {
  return runStep(scope.client, scope.sandboxId, step, cmd, args, scope.signal);
}

/** Runs the operations one after another, each with its own count of files and bytes moved. */
async function transferEach(
  operations: readonly PluginSyncOperation[],
  transferOne: (operation: PluginSyncOperation, transfer: Transfer) => Promise<void>,
): Promise<PluginEnvironmentSyncResult> {
  const results: PluginEnvironmentSyncResult["operations"] = [];
  for (const operation of operations) {
    const transfer: Transfer = { files: 0, bytes: 0 };
    await transferOne(operation, transfer);
    results.push({
      operationId: operation.operationId,
      filesTransferred: transfer.files,
      bytesTransferred: transfer.bytes,
    });
  }
  return { operations: results };
}

/** Host files and directories into the sandbox (tar for directories), then the post-upload commands. */
export async function syncIn(
  runtime: PluginRuntime,
  params: PluginEnvironmentSyncInParams,
): Promise<PluginEnvironmentSyncResult> {
  const scope = await openScope(runtime, params);
  return transferEach(params.operations, async (operation, transfer) => {
    // Check every path of the operation before moving any byte.
    const mappings = operation.files.map((file) => ({
      file,
      source: hostPath(file.sourcePath, "sourcePath", operation.operationId),
      target: confineSandboxEntry(file.targetPath, "targetPath", operation.operationId),
    }));
    const commands = (operation.postUploadCommands ?? []).map((command) => ({
      command,
      cwd: confineSandboxPath(command.cwd ?? WORKSPACE_PATH, "postUploadCommands.cwd", operation.operationId),
    }));
    for (const { file, source, target } of mappings) {
      if (file.kind === "directory") await uploadDirectory(scope, file, source, target, transfer);
      else await uploadFile(scope, file, source, target, transfer);
    }
    for (const [index, { command, cwd }] of commands.entries()) {
      await runPostUploadCommand(scope, command, cwd, operation.operationId, index);
    }
  });
}

async function uploadFile(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
): Promise<void> {
  const bytes = await readFile(source);
  const dir = posix.dirname(target);
  const temp = `${dir}/.paperclip-sync-${randomUUID()}`;
  await syncStep(scope, "sync in: directory", "/bin/mkdir", ["-p", dir]);
  await putFile(scope.client, scope.sandboxId, temp, bytes, scope.signal);
  // The mode is applied to the staged file, then it is promoted with a rename.
  await syncStep(scope, "sync in: promote file", "/bin/sh", [
    "-c",
    'if [ -n "$1" ]; then chmod "$1" "$2"; fi && mv -f -- "$2" "$3"',
    "sh",
    modeText(file.mode),
    temp,
    target,
  ]);
  transfer.files += 1;
  transfer.bytes += bytes.length;
}

async function uploadDirectory(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
): Promise<void> {
  const excluded = compileExcludes(file.exclude);
  await withScratchDir(async (work) => {
    const archive = join(work, "in.tar");
    let files = 0;
    await tar.c(
      {
        file: archive,
        cwd: source,
        portable: true,
        follow: file.followSymlinks === true,
        filter: (path, stat) => {
          if (excluded(path)) return false;
          if (!("isDirectory" in stat) || !stat.isDirectory()) files++;
          return true;
        },
      },
      ["."],
    );
    const bytes = await readFile(archive);
    const dir = posix.dirname(target);
    const id = randomUUID();
    const remoteArchive = `${dir}/.paperclip-sync-${id}.tar`;
    const staging = `${dir}/.paperclip-sync-${id}.d`;
    await syncStep(scope, "sync in: directory", "/bin/mkdir", ["-p", dir]);
    await putFile(scope.client, scope.sandboxId, remoteArchive, bytes, scope.signal);
    await syncStep(scope, "sync in: extract", "/bin/sh", [
      "-c",
      [
        "set -e",
        'mkdir -- "$2"',
        'tar -x -f "$1" -C "$2" --no-same-owner',
        'rm -f -- "$1"',
        'if [ -n "$4" ]; then chmod "$4" "$2"; fi',
        'rm -rf -- "$3"',
        'mv -- "$2" "$3"',
      ].join("\n"),
      "sh",
      remoteArchive,
      staging,
      target,
      modeText(file.mode),
    ]);
    transfer.files += files;
    transfer.bytes += bytes.length;
  });
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
        timeoutMs: command.timeoutMs,
        signal,
      },
      {},
      { block: (reason) => scope.runtime.leases.block(scope.sandboxId, reason) },
    ),
  );
  if (result.exitCode !== 0 || result.timedOut) {
    throw new CreateosError(
      "ERR_CREATEOS_SYNC_COMMAND_FAILED",
      `CreateOS post-upload command failed (exit ${result.exitCode}).`,
      {
        details: {
          operationId: operationId.slice(0, 100),
          index,
          exitCode: result.exitCode,
          timedOut: result.timedOut,
        },
      },
    );
  }
}

/** Sandbox files and directories back to the host: checked archives, modes before promotion, atomic writes. */
export async function syncOut(
  runtime: PluginRuntime,
  params: PluginEnvironmentSyncOutParams,
): Promise<PluginEnvironmentSyncResult> {
  const scope = await openScope(runtime, params);
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

function missing(): CreateosApiError {
  return new CreateosApiError(
    "ERR_CREATEOS_HTTP_STATUS",
    "CreateOS request failed (HTTP 404) during file transfer.",
    {
      status: 404,
      operation: "file transfer",
    },
  );
}

async function downloadFile(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
): Promise<void> {
  const bytes = await getFile(scope.client, scope.sandboxId, source, scope.signal);
  if (bytes === null) throw missing();
  await writeHostFileAtomic(target, bytes, file.mode);
  transfer.files += 1;
  transfer.bytes += bytes.length;
}

async function downloadDirectory(
  scope: SyncScope,
  file: PluginSyncFileMapping,
  source: string,
  target: string,
  transfer: Transfer,
): Promise<void> {
  const remoteArchive = `/tmp/paperclip-sync-${randomUUID()}.tar`;
  const flags = [
    ...(file.followSymlinks === true ? ["--dereference"] : []),
    ...(file.exclude ?? []).map((pattern) => `--exclude=${pattern}`),
  ];
  await syncStep(scope, "sync out: pack", "/bin/sh", [
    "-c",
    'a="$1"; d="$2"; shift 2; exec tar -c -f "$a" -C "$d" "$@" .',
    "sh",
    remoteArchive,
    source,
    ...flags,
  ]);
  let bytes: Buffer | null;
  try {
    bytes = await getFile(scope.client, scope.sandboxId, remoteArchive, scope.signal);
  } finally {
    await syncStep(scope, "sync out: clean up", "/bin/rm", ["-f", "--", remoteArchive]).catch(
      () => undefined,
    );
  }
  if (bytes === null) throw missing();
  await withScratchDir(async (work) => {
    const archive = join(work, "out.tar");
    await writeHostFileAtomic(archive, bytes, 0o600);
    // Every entry is checked before anything is extracted.
    let files = 0;
    let firstError: unknown;
    await tar.t({
      file: archive,
      strict: true,
      onReadEntry: (entry) => {
        try {
          checkArchiveEntry({ path: entry.path, type: entry.type, linkpath: entry.linkpath });
          if (entry.type !== "Directory") files++;
        } catch (error) {
          firstError ??= error;
        }
      },
    });
    if (firstError !== undefined) throw firstError;
    const staging = await makeStagingDir(target);
    try {
      await tar.x({ file: archive, cwd: staging, strict: true, preservePaths: false, preserveOwner: false });
      if (file.mode !== undefined) await chmod(staging, file.mode & 0o7777);
      else await chmod(staging, 0o755);
      await promoteDirectory(staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    transfer.files += files;
    transfer.bytes += bytes.length;
  });
}
