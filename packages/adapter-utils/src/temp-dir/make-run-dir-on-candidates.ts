import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeOwnerRecord } from "./owner-record.js";
import { sweepOwnerRegistriesThrottled, sweepStaleProxyDirsThrottled } from "./sweep-stale-dirs.js";
import {
  defaultProxyTempDirCandidates,
  NETWORK_PROXY_TEMP_PREFIX,
  uniqueCandidates,
} from "./temp-dir-candidates.js";

/** Why one candidate base directory could not be used; JSON-safe, in `details.attempts`. */
export type ProxyTempDirAttempt = {
  baseDir: string;
  /** `EACCES`, `EROFS`, `ENOSPC`, `ENOENT`…, or `ERR_SANDBOX_SOCKET_PATH_TOO_LONG`. */
  code: string;
  /** One readable sentence. */
  reason: string;
  /** Set when the socket path was too long. */
  socketPathBytes?: number;
};

export type RunDirOutcome =
  | { readonly dir: string }
  | {
      readonly dir: null;
      readonly candidates: string[];
      readonly attempts: ProxyTempDirAttempt[];
      readonly lastError: unknown;
    };

function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "UNKNOWN";
}

function failureReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A test a fresh directory must pass before it is used, and how its failure reads. */
export interface RunDirCheck {
  /** Throws when `dir` cannot serve this run. */
  assert: (dir: string) => void;
  describe: (baseDir: string, dir: string, error: unknown) => ProxyTempDirAttempt;
}

/**
 * Creates a per-run directory (mode 0700, with an owner record) on the first
 * candidate base directory where `mkdtemp` succeeds and `check` (when given)
 * passes; every candidate's failure is recorded with its own reason. Stale
 * directories of dead owners are swept from each candidate tried, in the
 * background (at most once a minute per process).
 * The few metadata calls on the start path are synchronous: microseconds each,
 * where thread-pool round trips would add milliseconds to every sandbox start.
 */
export function makeRunDirOnCandidates(
  requested: readonly string[] | undefined,
  check?: RunDirCheck,
  /** Readies a base directory before use; throws (with an errno-style `code`) when it cannot serve. */
  prepareBase?: (baseDir: string) => void,
): RunDirOutcome {
  const candidates = requested
    ? uniqueCandidates(requested)
    : defaultProxyTempDirCandidates(os.tmpdir(), process.env);
  const attempts: ProxyTempDirAttempt[] = [];
  let lastError: unknown;
  for (const baseDir of candidates) {
    try {
      prepareBase?.(baseDir);
    } catch (error) {
      lastError = error;
      attempts.push({ baseDir, code: failureCode(error), reason: `unusable: ${failureReason(error)}` });
      continue;
    }
    // In the background: a sweep reads the whole base directory (and /proc when it finds a
    // leftover), which must not delay this start. It never removes a live owner's directory.
    sweepStaleProxyDirsThrottled(baseDir).catch(() => {});
    // Directories of dead owners in bases this process does not try (another TMPDIR, a caller's).
    sweepOwnerRegistriesThrottled().catch(() => {});
    let dir: string;
    try {
      dir = mkdtempSync(path.join(baseDir, NETWORK_PROXY_TEMP_PREFIX));
    } catch (error) {
      lastError = error;
      attempts.push({ baseDir, code: failureCode(error), reason: `mkdtemp failed: ${failureReason(error)}` });
      continue;
    }
    let checked = false;
    try {
      check?.assert(dir);
      checked = true;
      writeOwnerRecord(dir);
      return { dir };
    } catch (error) {
      lastError = error;
      rmSync(dir, { recursive: true, force: true });
      attempts.push(
        check && !checked
          ? check.describe(baseDir, dir, error)
          : {
              baseDir,
              code: failureCode(error),
              reason: `preparing the directory failed: ${failureReason(error)}`,
            },
      );
    }
  }
  return { dir: null, candidates, attempts: attempts.map((attempt) => ({ ...attempt })), lastError };
}
