import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { maskMountPoints } from "../bwrap/mask-mount-points.js";
import { sourceOf } from "../bwrap/mount-request.js";
import { createNetworkProxyTempDir } from "../temp-dir/create-network-proxy-temp-dir.js";
import { createPrivateSocketDir } from "../temp-dir/create-private-socket-dir.js";
import { createSandboxRunDir } from "../temp-dir/create-sandbox-run-dir.js";
import { createExposedSocketRoots } from "../temp-dir/exposed-socket-roots.js";
import { ownRecordText } from "../temp-dir/owner-record.js";
import { privateSocketRoots } from "../temp-dir/private-socket-roots.js";
import { removeProxyTempDir } from "../temp-dir/remove-proxy-temp-dir.js";
import { removedByKnownEntries } from "../temp-dir/run-dir-known-entries.js";
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
   * The network-only deny scope's directory lies in a private socket root (the default
   * place): no sandbox sees that root, so its cleanup removes its known entries by path.
   */
  readonly #inPrivateRoot: boolean;
  /** Mask directories `0`…`n-1` that `createMaskDirs` made in `runDir`. */
  #maskDirs: readonly string[] = [];
  /** The bwrap argv that binds the masks, read by the cleanup for the mount points bwrap made in them. */
  #scopeArgs: readonly string[] = [];

  private constructor(runDir: string | null, inPrivateRoot = false) {
    this.runDir = runDir;
    this.#inPrivateRoot = inPrivateRoot;
  }

  /**
   * The allowlist's directory holds proxy.sock (107-byte limit); the network-only deny
   * scope's holds only the private /tmp and masks, which may live anywhere.
   */
  static async create(parsed: ParsedSpawnInput, candidates: readonly string[] | undefined): Promise<RunDirs> {
    const options = { candidates };
    if (parsed.networkScope === "allowlist") return new RunDirs(await createNetworkProxyTempDir(options));
    if (parsed.filesystemScope) return new RunDirs(null);
    const runDir = await createSandboxRunDir(options);
    const roots = privateSocketRoots(process.getuid?.() ?? 0);
    return new RunDirs(runDir, roots.includes(path.dirname(runDir)));
  }

  /** Creates (empty, 0700) the mask directories `scopeArgs` named, `<runDir>/0`…`<runDir>/n-1`, bound by `args`. */
  createMaskDirs(maskDirs: readonly string[], args: readonly string[]): void {
    for (const dir of maskDirs) mkdirSync(dir, { mode: 0o700 });
    this.#maskDirs = maskDirs;
    this.#scopeArgs = args;
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

  /** The fast cleanup of a deny run's directory in a private root; `false` leaves it to the no-follow walk. */
  #removedByKnownEntries(runDir: string): boolean {
    if (!this.#inPrivateRoot) return false;
    // The record is this process's own (`makeRunDirOnCandidates`): known, not read back.
    return removedByKnownEntries(runDir, this.#maskDirs.length, this.#maskMountPoints(), ownRecordText());
  }

  /**
   * Worked out after the run, not during its start: the argv is only read here. The cleanup
   * never throws; an argv its parser cannot read (no builder emits one: `bindIdentities`
   * parses the same argv) names none, and the walk removes what they would have.
   */
  #maskMountPoints(): string[] {
    try {
      return maskMountPoints(this.#scopeArgs, this.#maskDirs);
    } catch {
      return [];
    }
  }

  async remove(): Promise<void> {
    await Promise.all([
      this.runDir && !this.#removedByKnownEntries(this.runDir) ? removeProxyTempDir(this.runDir) : undefined,
      this.#socketDir ? removeProxyTempDir(this.#socketDir) : undefined,
    ]);
    await this.#removeCreatedRoots?.();
  }
}
