import { SandboxError } from "@paperclipai/errors";
import { privateSocketRootsInUse } from "./hidden-socket-roots.js";
import { makeRunDirOnCandidates, type RunDirOutcome } from "./make-run-dir-on-candidates.js";
import { execForbiddenUnder } from "./mount-forbids-exec.js";
import { preparePrivateRoot } from "./prepare-private-root.js";

export interface CreateSandboxRunDirOptions {
  /** Base directories to try in order; default the private socket roots, then `/tmp`, `os.tmpdir()`, `$XDG_RUNTIME_DIR`. */
  candidates?: readonly string[] | undefined;
}

let execRoots: string[] | undefined;

/**
 * The private socket roots where a program may run from files (their private `/tmp`
 * becomes the sandbox's), in order of preference: `/dev/shm` first on most hosts.
 * Judged once per process: a start must not re-read the mount table.
 */
function execPrivateRoots(): string[] {
  execRoots ??= privateSocketRootsInUse().filter((root) => !execForbiddenUnder(root));
  return execRoots;
}

/**
 * Creates the per-run directory (mode 0700) of the network-only `deny` scope, whose
 * private directories are bound over `/tmp` and the masked runtime paths. By default it
 * lives in a private socket root, like the allowlist's socket directory: no sandbox sees
 * it (every sandbox masks every root wherever a bind would show one), and `/dev/shm`'s
 * tmpfs makes its directories cheap to create and remove, where a disk-backed `/tmp`
 * costs a journal update for each. No socket lives there and bwrap takes mount paths up
 * to PATH_MAX, so the 107-byte socket limit does not apply: a deep `TMPDIR` is fine.
 */
export async function createSandboxRunDir(options: CreateSandboxRunDirOptions = {}): Promise<string> {
  const outcomes: RunDirOutcome[] = [];
  if (!options.candidates) {
    const inPrivateRoot = makeRunDirOnCandidates(execPrivateRoots(), undefined, preparePrivateRoot);
    if (inPrivateRoot.dir !== null) return inPrivateRoot.dir;
    outcomes.push(inPrivateRoot);
  }
  const outcome = makeRunDirOnCandidates(options.candidates);
  if (outcome.dir !== null) return outcome.dir;
  outcomes.push(outcome);
  const failed = outcomes.flatMap((each) => (each.dir === null ? [each] : []));
  throw new SandboxError(
    "ERR_SANDBOX_RUN_DIR",
    "Unable to create the per-run Paperclip sandbox directory (private /tmp and /run masks of the network-only scope).",
    {
      cause: failed.at(-1)?.lastError,
      details: {
        candidates: failed.flatMap((each) => each.candidates),
        attempts: failed.flatMap((each) => each.attempts),
      },
      retryable: false,
    },
  );
}
