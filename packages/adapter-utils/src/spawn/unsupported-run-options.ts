import { SandboxError } from "@paperclipai/errors";

/**
 * Upstream `runChildProcess` options this package does not implement. Each would
 * change where or how the process runs (on a remote host; stopped once its output
 * shows a terminal result), so ignoring one would quietly do something else.
 */
export const UNSUPPORTED_RUN_OPTIONS = ["remoteExecution", "terminalResultCleanup"] as const;

export type UnsupportedRunOption = (typeof UNSUPPORTED_RUN_OPTIONS)[number];

/**
 * Throws `ERR_SANDBOX_UNSUPPORTED_OPTION` when `opts` sets one of them. Upstream acts
 * on a truthy value only, so `null`/`undefined` (its local default) pass. The error
 * names the options, never their values (a remote spec carries hosts and keys).
 */
export function assertSupportedRunOptions(opts: Partial<Record<UnsupportedRunOption, unknown>>): void {
  const refused = UNSUPPORTED_RUN_OPTIONS.filter((option) => Boolean(opts[option]));
  if (refused.length === 0) return;
  throw new SandboxError(
    "ERR_SANDBOX_UNSUPPORTED_OPTION",
    `runChildProcess does not implement the upstream option(s) ${refused.map((option) => `"${option}"`).join(", ")}; refusing to run without them.`,
    { details: { options: [...refused] }, retryable: false },
  );
}
