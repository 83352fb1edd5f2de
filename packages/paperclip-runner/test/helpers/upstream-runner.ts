import { toolchainCache } from "@paperclipai/test-support";

/** Upstream's Rust runner (its launcher through Debian 13's loader), from the toolchain cache. */
export const upstreamRunner = (): string =>
  toolchainCache("the differentials against upstream's runner", "upstream-runnerd");
