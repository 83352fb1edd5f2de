import { atomicPrivateWrite } from "../private-fs/atomic-private-write.js";
import { boundedRedactedDiagnostic } from "./bounded-redacted-diagnostic.js";
import { DIAGNOSTICS_PATH_ERRORS } from "./diagnostics-path-errors.js";

/** The file a diagnostic is persisted as, inside the diagnostics directory. */
export const DIAGNOSTIC_FILE_NAME = "runnerd.stderr.log";

/**
 * Persists `message` as `directory/runnerd.stderr.log`: the directory is
 * checked as `verifyPrivateDiagnosticsDirectory` does, the message is redacted
 * then bounded (`boundedRedactedDiagnostic`), and written atomically through
 * `.runnerd.stderr.log.${pid}.${attempt}.tmp` (exclusive no-follow create,
 * 0600, fsync, rename, directory fsync; 32 attempts, then
 * `could not allocate a runner diagnostic temporary file`). Temporary files of
 * dead processes are swept first. Returns the text written.
 */
export async function persistRunnerDiagnostic(directory: string, message: string): Promise<string> {
  const contents = boundedRedactedDiagnostic(message);
  await atomicPrivateWrite(directory, DIAGNOSTIC_FILE_NAME, contents, { errors: DIAGNOSTICS_PATH_ERRORS });
  return contents;
}
