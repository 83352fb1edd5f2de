import path from "node:path";
import {
  type ServerToolchain,
  serverToolchain,
  toolchainCache,
} from "@paperclipai/test-support/paperclip-toolchain";

/** The repository root (this package lives in `e2e/runner-codex-oracle`). */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

/** Our runner's bin, built by the workspace. */
export const OUR_RUNNER_BIN = path.join(REPO_ROOT, "packages/paperclip-runner/bin/paperclip-runnerd.js");

/** Everything the scenarios run, from the toolchain cache outside the work tree. */
export interface CodexToolchain extends ServerToolchain {
  /** The real Codex CLI binary (`@openai/codex@0.156.1`, linux-x64). */
  readonly codex: string;
  /** The Codex CLI the server stages in a remote sandbox: the version it pins there (0.153.4). */
  readonly remoteCodex: string;
  /** A launcher for upstream's Rust paperclip-runnerd through Debian 13's loader. */
  readonly upstreamRunner: string;
}

/** The packages a remote provider pack carries besides the runner's own (`provider-pack.ts`). */
export interface ProviderPackToolchain {
  /** The real OpenCode binary the server pins (1.18.29). */
  readonly opencode: string;
  /** A directory whose `node_modules` holds the pinned ACPX packages. */
  readonly acpxPackages: string;
}

/** Installs (once) and locates what a provider pack is built from. */
export function resolveProviderPackToolchain(): ProviderPackToolchain {
  const who = "the remote OpenCode test";
  return {
    opencode: toolchainCache(who, "opencode"),
    acpxPackages: toolchainCache(who, "pack-acpx-packages"),
  };
}

/** Installs (once) and locates the pinned toolchain; the Codex binary and upstream's runner need Debian's archive once too. */
export async function resolveCodexToolchain(): Promise<CodexToolchain> {
  const who = "the Codex oracle";
  return {
    ...serverToolchain(who),
    codex: toolchainCache(who, "codex"),
    remoteCodex: toolchainCache(who, "remote-codex"),
    upstreamRunner: toolchainCache(who, "upstream-runnerd"),
  };
}
