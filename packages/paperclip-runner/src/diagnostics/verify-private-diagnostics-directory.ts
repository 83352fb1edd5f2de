import { verifyPrivateDirectory } from "../private-fs/open-private-directory.js";
import { DIAGNOSTICS_PATH_ERRORS } from "./diagnostics-path-errors.js";

/**
 * Step 1 of persisting a diagnostic, before any file is touched: `directory`
 * must be a real directory (`lstat`; a symlink or anything else is
 * `runner diagnostics path is not a real directory`), with no group or other
 * bit (`ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS`, `details.mode`), owned by the
 * effective uid (`ERR_RUNNER_DIAGNOSTICS_DIR_OWNER`), and the descriptor opened
 * with `O_DIRECTORY|O_NOFOLLOW` must be that same directory
 * (`ERR_RUNNER_DIAGNOSTICS_DIR_SWAPPED`). A missing directory is its OS error
 * (`ERR_RUNNER_DIAGNOSTICS_DIR_MISSING`, `details.errno`). Never creates or
 * chmods anything: the launcher owns the directory.
 */
export async function verifyPrivateDiagnosticsDirectory(directory: string): Promise<void> {
  await verifyPrivateDirectory(directory, { errors: DIAGNOSTICS_PATH_ERRORS });
}
