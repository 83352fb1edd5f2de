import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import { writeOwnerRecord } from "./owner-record.js";
import { assertUnixSocketPathLength, UNIX_SOCKET_PATH_MAX_BYTES } from "./socket-path-length.js";
import { sweepStaleProxyDirsThrottled } from "./sweep-stale-dirs.js";
import {
  defaultProxyTempDirCandidates,
  NETWORK_PROXY_TEMP_PREFIX,
  PROXY_SOCKET_NAME,
  uniqueCandidates,
} from "./temp-dir-candidates.js";

/** Why one candidate base directory could not be used; JSON-safe, in `details.attempts`. */
export interface ProxyTempDirAttempt {
  baseDir: string;
  /** `EACCES`, `EROFS`, `ENOSPC`, `ENOENT`…, or `ERR_SANDBOX_SOCKET_PATH_TOO_LONG`. */
  code: string;
  /** One readable sentence. */
  reason: string;
  /** Set when the socket path was too long. */
  socketPathBytes?: number;
}

export interface CreateNetworkProxyTempDirOptions {
  /** Base directories to try in order; default `/tmp`, `os.tmpdir()`, `$XDG_RUNTIME_DIR`. */
  candidates?: readonly string[] | undefined;
}

function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "UNKNOWN";
}

function failureReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Creates the per-run directory (mode 0700) that holds `proxy.sock` and the bridge,
 * on the first candidate whose socket path fits in 107 bytes. Stale directories of
 * dead owners are swept from each candidate tried, in the background (at most once a
 * minute per process).
 * The few metadata calls on the start path are synchronous: microseconds each,
 * where thread-pool round trips would add milliseconds to every sandbox start.
 */
export async function createNetworkProxyTempDir(
  options: CreateNetworkProxyTempDirOptions = {},
): Promise<string> {
  const candidates = options.candidates
    ? uniqueCandidates(options.candidates)
    : defaultProxyTempDirCandidates(os.tmpdir(), process.env);
  const attempts: ProxyTempDirAttempt[] = [];
  let lastError: unknown;
  for (const baseDir of candidates) {
    // In the background: a sweep reads the whole base directory (and /proc when it finds a
    // leftover), which must not delay this start. It never removes a live owner's directory.
    sweepStaleProxyDirsThrottled(baseDir).catch(() => {});
    let tempDir: string;
    try {
      tempDir = mkdtempSync(path.join(baseDir, NETWORK_PROXY_TEMP_PREFIX));
    } catch (error) {
      lastError = error;
      attempts.push({ baseDir, code: failureCode(error), reason: `mkdtemp failed: ${failureReason(error)}` });
      continue;
    }
    try {
      assertUnixSocketPathLength(path.join(tempDir, PROXY_SOCKET_NAME));
      writeOwnerRecord(tempDir);
      return tempDir;
    } catch (error) {
      lastError = error;
      rmSync(tempDir, { recursive: true, force: true });
      const socketPathBytes = Buffer.byteLength(path.join(tempDir, PROXY_SOCKET_NAME));
      attempts.push(
        socketPathBytes > UNIX_SOCKET_PATH_MAX_BYTES
          ? {
              baseDir,
              code: failureCode(error),
              reason: `socket path would be ${socketPathBytes} bytes, over the Linux limit of ${UNIX_SOCKET_PATH_MAX_BYTES}`,
              socketPathBytes,
            }
          : {
              baseDir,
              code: failureCode(error),
              reason: `preparing the directory failed: ${failureReason(error)}`,
            },
      );
    }
  }
  throw new SandboxError(
    "ERR_SANDBOX_PROXY_SOCKET_DIR",
    "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    {
      cause: lastError,
      details: { candidates, attempts: attempts.map((attempt) => ({ ...attempt })) },
      retryable: false,
    },
  );
}
