import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import { makeRunDirOnCandidates } from "./make-run-dir-on-candidates.js";
import { privateSocketRoots } from "./private-socket-roots.js";
import { assertUnixSocketPathLength } from "./socket-path-length.js";
import { PROXY_SOCKET_NAME } from "./temp-dir-candidates.js";

function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * A root must be this user's own directory, and no one else's way in: created
 * 0700 when missing; one another user made first (or a link) is refused, since
 * its owner could read the sockets' names or swap them.
 */
export function preparePrivateRoot(root: string): void {
  const uid = process.getuid?.() ?? 0;
  try {
    mkdirSync(root, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stats = lstatSync(root);
  if (!stats.isDirectory()) throw failure("ENOTDIR", `${root} is not a directory`);
  if (stats.uid !== uid) throw failure("EPERM", `${root} belongs to uid ${stats.uid}, not ${uid}`);
  if ((stats.mode & 0o077) !== 0) chmodSync(root, 0o700);
}

/**
 * Creates the directory that really holds this run's `proxy.sock` (and bridge):
 * `<root>/paperclip-network-sandbox-XXXXXX` in the first usable private socket
 * root (`/dev/shm`, `/tmp`, `/run/user/<uid>`, each `/paperclip-sandbox-sockets-<uid>`),
 * mode 0700 with an owner record. The proxy directory of upstream's contract
 * (`createNetworkProxyTempDir`) only links to it, so no proxy socket ever lives
 * where another sandbox can see it.
 */
export function createPrivateSocketDir(): string {
  const uid = process.getuid?.() ?? 0;
  const outcome = makeRunDirOnCandidates(
    privateSocketRoots(uid),
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
      details: { candidates: outcome.candidates, attempts: outcome.attempts, privateSocketRoot: true },
      retryable: false,
    },
  );
}
