import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import { privateSocketRootLayout, type SocketRootLayout } from "./hidden-socket-roots.js";
import { makeRunDirOnCandidates } from "./make-run-dir-on-candidates.js";
import { preparePrivateRoot } from "./prepare-private-root.js";
import { assertUnixSocketPathLength } from "./socket-path-length.js";
import { PROXY_SOCKET_NAME } from "./temp-dir-candidates.js";

/**
 * Creates the directory that really holds this run's `proxy.sock` (and bridge):
 * `<root>/paperclip-network-sandbox-XXXXXX` in the first usable private socket
 * root (`/dev/shm`, `/tmp`, `/run/user/<uid>`, each `/paperclip-sandbox-sockets-<uid>`),
 * mode 0700 with an owner record. The proxy directory of upstream's contract
 * (`createNetworkProxyTempDir`) only links to it, so no proxy socket ever lives
 * where another sandbox can see it. A root this host puts where a sandbox may
 * show it is skipped (`sortSocketRoots`); the error names those in
 * `details.skippedRoots`, so an empty list of attempts is not a riddle.
 */
export function createPrivateSocketDir(layout: SocketRootLayout = privateSocketRootLayout()): string {
  const outcome = makeRunDirOnCandidates(
    layout.inUse,
    {
      assert: (dir) => assertUnixSocketPathLength(path.join(dir, PROXY_SOCKET_NAME)),
      describe: (baseDir, _dir, error) => ({
        baseDir,
        code: String((error as { code?: unknown }).code ?? "UNKNOWN"),
        reason: (error as Error).message,
      }),
    },
    preparePrivateRoot,
  );
  if (outcome.dir !== null) return outcome.dir;
  throw new SandboxError(
    "ERR_SANDBOX_PROXY_SOCKET_DIR",
    "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    {
      cause: outcome.lastError,
      details: {
        candidates: outcome.candidates,
        attempts: outcome.attempts,
        skippedRoots: layout.skipped,
        privateSocketRoot: true,
      },
      retryable: false,
    },
  );
}
