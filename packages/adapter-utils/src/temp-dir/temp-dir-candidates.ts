import path from "node:path";

export const NETWORK_PROXY_TEMP_PREFIX = "paperclip-network-sandbox-";
/** Name of the socket the proxy listens on, inside the per-run directory. */
export const PROXY_SOCKET_NAME = "proxy.sock";
/** Longest name `mkdtemp` produces from the prefix (six random characters). */
export const PROXY_TEMP_DIR_NAME_BYTES = NETWORK_PROXY_TEMP_PREFIX.length + 6;

/**
 * Base directories for the per-run proxy directory, in upstream's order (`/tmp`,
 * then `os.tmpdir()`) plus `$XDG_RUNTIME_DIR`, a short per-user tmpfs on systemd
 * hosts. Relative and empty values are dropped, duplicates removed.
 */
export function defaultProxyTempDirCandidates(tmpdir: string, env: NodeJS.ProcessEnv): string[] {
  return uniqueCandidates(["/tmp", tmpdir, env.XDG_RUNTIME_DIR ?? ""]);
}

export function uniqueCandidates(candidates: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (!candidate || !path.isAbsolute(candidate)) continue;
    seen.add(path.resolve(candidate));
  }
  return [...seen];
}

/** Bytes of `<base>/<prefix>XXXXXX/proxy.sock`, the path the 107-byte limit applies to. */
export function socketPathBytesUnder(baseDir: string): number {
  return Buffer.byteLength(path.join(baseDir, "x".repeat(PROXY_TEMP_DIR_NAME_BYTES), PROXY_SOCKET_NAME));
}
