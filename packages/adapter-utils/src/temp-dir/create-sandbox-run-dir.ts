import { SandboxError } from "@paperclipai/errors";
import { makeRunDirOnCandidates } from "./make-run-dir-on-candidates.js";

export interface CreateSandboxRunDirOptions {
  /** Base directories to try in order; default `/tmp`, `os.tmpdir()`, `$XDG_RUNTIME_DIR`. */
  candidates?: readonly string[] | undefined;
}

/**
 * Creates the per-run directory (mode 0700) of the network-only `deny` scope, whose
 * private directories are bound over `/tmp` and the masked runtime paths. No socket
 * lives there and bwrap takes mount paths up to PATH_MAX, so the 107-byte socket
 * limit does not apply: a deep `TMPDIR` is fine.
 */
export async function createSandboxRunDir(options: CreateSandboxRunDirOptions = {}): Promise<string> {
  const outcome = makeRunDirOnCandidates(options.candidates);
  if (outcome.dir !== null) return outcome.dir;
  throw new SandboxError(
    "ERR_SANDBOX_RUN_DIR",
    "Unable to create the per-run Paperclip sandbox directory (private /tmp and /run masks of the network-only scope).",
    {
      cause: outcome.lastError,
      details: { candidates: outcome.candidates, attempts: outcome.attempts },
      retryable: false,
    },
  );
}
