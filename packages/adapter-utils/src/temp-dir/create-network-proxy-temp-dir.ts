import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import { makeRunDirOnCandidates, type ProxyTempDirAttempt } from "./make-run-dir-on-candidates.js";
import { assertUnixSocketPathLength, UNIX_SOCKET_PATH_MAX_BYTES } from "./socket-path-length.js";
import { PROXY_SOCKET_NAME } from "./temp-dir-candidates.js";

export type { ProxyTempDirAttempt } from "./make-run-dir-on-candidates.js";

export interface CreateNetworkProxyTempDirOptions {
  /** Base directories to try in order; default `/tmp`, `os.tmpdir()`, `$XDG_RUNTIME_DIR`. */
  candidates?: readonly string[] | undefined;
}

function describeSocketCheckFailure(baseDir: string, dir: string, error: unknown): ProxyTempDirAttempt {
  const code = (error as { code?: unknown } | null)?.code;
  const socketPathBytes = Buffer.byteLength(path.join(dir, PROXY_SOCKET_NAME));
  return {
    baseDir,
    code: typeof code === "string" ? code : "UNKNOWN",
    reason: `socket path would be ${socketPathBytes} bytes, over the Linux limit of ${UNIX_SOCKET_PATH_MAX_BYTES}`,
    socketPathBytes,
  };
}

/**
 * Creates the per-run directory (mode 0700) that holds `proxy.sock` and the bridge,
 * on the first candidate whose socket path fits in 107 bytes.
 */
export async function createNetworkProxyTempDir(
  options: CreateNetworkProxyTempDirOptions = {},
): Promise<string> {
  const outcome = makeRunDirOnCandidates(options.candidates, {
    assert: (dir) => assertUnixSocketPathLength(path.join(dir, PROXY_SOCKET_NAME)),
    describe: describeSocketCheckFailure,
  });
  if (outcome.dir !== null) return outcome.dir;
  throw new SandboxError(
    "ERR_SANDBOX_PROXY_SOCKET_DIR",
    "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    {
      cause: outcome.lastError,
      details: { candidates: outcome.candidates, attempts: outcome.attempts },
      retryable: false,
    },
  );
}
