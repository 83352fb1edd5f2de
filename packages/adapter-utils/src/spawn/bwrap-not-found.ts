import { SandboxError } from "@paperclipai/errors";

/**
 * `ERR_SANDBOX_BWRAP_NOT_FOUND`: bwrap is looked up on the host's PATH only (absolute
 * entries), never on the run's, so that is where the message says it was missing.
 */
export function bwrapNotFound(command: string): SandboxError {
  return new SandboxError(
    "ERR_SANDBOX_BWRAP_NOT_FOUND",
    `Local process confinement requires Bubblewrap, but "${command}" was not found on the host's PATH. Install bwrap or configure filesystemSandboxCommand.`,
    { details: { command } },
  );
}
