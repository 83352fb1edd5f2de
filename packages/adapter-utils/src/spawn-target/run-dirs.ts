import { mkdirSync, rmdirSync, symlinkSync, unlinkSync } from "node:fs";
import path from "node:path";
import { sourceOf } from "../bwrap/mount-request.js";
import { createNetworkProxyTempDir } from "../temp-dir/create-network-proxy-temp-dir.js";
import { createPrivateSocketDir } from "../temp-dir/create-private-socket-dir.js";
import { createPrivateRootRunDir, createSandboxRunDirWhere } from "../temp-dir/create-sandbox-run-dir.js";
import { createExposedSocketRoots } from "../temp-dir/exposed-socket-roots.js";
import { OWNER_RECORD_NAME, removeOwnerRecord } from "../temp-dir/owner-record.js";
import { removeProxyTempDir } from "../temp-dir/remove-proxy-temp-dir.js";
import { emptiedInPlace } from "../temp-dir/remove-tree-no-follow.js";
import { claimStagedRunDir, stageRunDir } from "../temp-dir/staged-run-dir.js";
import { PROXY_SOCKET_NAME } from "../temp-dir/temp-dir-candidates.js";
import type { ParsedSpawnInput } from "./parse-spawn-input.js";
import type { SandboxMounts } from "./sandbox-mounts.js";

/**
 * The host directories of one run, and what removes them once its sandbox is gone: the
 * run directory (the allowlist's proxy directory, or the network-only deny scope's, which
 * holds its private /tmp and masks), the private socket directory behind it, and the
 * socket roots created so that a mask has somewhere to go.
 */
export class RunDirs {
  /** `null` in the workspace scope without allowlist: nothing of the run lives on the host. */
  readonly runDir: string | null;
  #socketDir: string | null = null;
  #removeCreatedRoots: (() => Promise<void>) | null = null;
  /**
   * The network-only deny scope's directory in a private socket root (the default place):
   * no sandbox sees that root, so its known entries go by path, and the next run's
   * directory is staged there ahead of need.
   */
  readonly #inPrivateRoot: boolean;
  /** Mask directories `0`…`n-1` that exist in `runDir` (staged, or made by `createMaskDirs`). */
  #maskCount: number;

  private constructor(runDir: string | null, inPrivateRoot = false, maskCount = 0) {
    this.runDir = runDir;
    this.#inPrivateRoot = inPrivateRoot;
    this.#maskCount = maskCount;
  }

  /**
   * The allowlist's directory holds proxy.sock (107-byte limit); the network-only deny
   * scope's holds only the private /tmp and masks, which may live anywhere. By default
   * that one is the directory staged after the previous build, when it is untouched
   * (`claimStagedRunDir`), else a fresh one.
   */
  static async create(parsed: ParsedSpawnInput, candidates: readonly string[] | undefined): Promise<RunDirs> {
    const options = { candidates };
    if (parsed.networkScope === "allowlist") return new RunDirs(await createNetworkProxyTempDir(options));
    if (parsed.filesystemScope) return new RunDirs(null);
    const claimed = candidates ? null : claimStagedRunDir();
    if (claimed) return new RunDirs(claimed.dir, true, claimed.maskCount);
    const created = await createSandboxRunDirWhere(options);
    return new RunDirs(created.dir, created.inPrivateRoot);
  }

  /** Creates (empty, 0700) the mask directories `scopeArgs` named that do not exist yet. */
  createMaskDirs(maskDirs: readonly string[]): void {
    maskDirs.forEach((dir, index) => {
      // A staged directory holds `0`…`n-1` already; any other name is made here.
      if (index < this.#maskCount && this.runDir !== null && dir === path.join(this.runDir, String(index)))
        return;
      mkdirSync(dir, { mode: 0o700 });
    });
    this.#maskCount = Math.max(this.#maskCount, maskDirs.length);
  }

  /**
   * Stages the next run's directory in the background (after this build has returned
   * and its caller has spawned), with as many mask directories as this run used.
   */
  stageNext(): void {
    if (!this.#inPrivateRoot) return;
    const maskCount = this.#maskCount;
    setImmediate(() => stageRunDir(createPrivateRootRunDir, maskCount));
  }

  get socketDir(): string | null {
    return this.#socketDir;
  }

  /** Whether `remove` has anything to do. */
  get created(): boolean {
    return this.runDir !== null || this.#removeCreatedRoots !== null;
  }

  /**
   * Creates the run's private socket directory (in a private socket root, which no sandbox
   * sees) and links upstream's `<runDir>/proxy.sock` (the proxy directory) to the socket
   * there. Returns the socket's real path.
   */
  openSocketDir(runDir: string): string {
    this.#socketDir = createPrivateSocketDir();
    const socketPath = path.join(this.#socketDir, PROXY_SOCKET_NAME);
    symlinkSync(socketPath, path.join(runDir, PROXY_SOCKET_NAME));
    return socketPath;
  }

  /** Creates the socket roots a requested bind would show, so that their masks have a place. */
  exposeSocketRoots(mounts: SandboxMounts): void {
    this.#removeCreatedRoots = createExposedSocketRoots(
      [...mounts.requests.map(sourceOf), ...mounts.aliases.map((alias) => alias.target)],
      mounts.socketRoots,
    );
  }

  /**
   * The usual deny run's leftovers in a private root, in the call, without listing the
   * run directory: its mask directories, its record and itself, by path (neither rmdir
   * nor unlink follows a link, and no sandbox sees the root to swap a directory on the
   * way). A mask that is not empty (the private /tmp holding the mount point of a path
   * bound back, or what the program left) is emptied as the walk does it, through an
   * `O_NOFOLLOW` descriptor (`emptiedInPlace`). `false` when anything resisted: the
   * no-follow walk does the rest.
   */
  #removedByKnownEntries(runDir: string): boolean {
    if (!this.#inPrivateRoot) return false;
    try {
      for (let index = 0; index < this.#maskCount; index += 1) {
        const mask = path.join(runDir, String(index));
        try {
          rmdirSync(mask);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" || !emptiedInPlace(mask)) return false;
        }
      }
      unlinkSync(path.join(runDir, OWNER_RECORD_NAME));
      rmdirSync(runDir);
    } catch {
      return false;
    }
    // Only the bookkeeping is left: the record lived inside the directory.
    removeOwnerRecord(runDir).catch(() => {});
    return true;
  }

  async remove(): Promise<void> {
    await Promise.all([
      this.runDir && !this.#removedByKnownEntries(this.runDir) ? removeProxyTempDir(this.runDir) : undefined,
      this.#socketDir ? removeProxyTempDir(this.#socketDir) : undefined,
    ]);
    await this.#removeCreatedRoots?.();
  }
}
