import { SandboxError, truncateUtf8 } from "@paperclipai/errors";

const SETUP_STDERR_BYTES = 4096;

/** `ERR_SANDBOX_SPAWN_FAILED`: the command (or bwrap) could not be started at all. */
export function spawnFailure(
  command: string,
  cwd: string,
  env: Record<string, string>,
  error: unknown,
): SandboxError {
  const errno = (error as NodeJS.ErrnoException).code;
  const message =
    errno === "ENOENT"
      ? `Failed to start command "${command}" in "${cwd}". Verify adapter command, working directory, and PATH (${env.PATH ?? ""}).`
      : `Failed to start command "${command}" in "${cwd}": ${(error as Error).message}`;
  return new SandboxError("ERR_SANDBOX_SPAWN_FAILED", message, {
    cause: error,
    details: { command, cwd, code: errno ?? "unknown" },
  });
}

/** `ERR_SANDBOX_SETUP_FAILED`: bwrap ran but the program never started; bwrap says why on stderr. */
export function setupFailure(bwrap: string, exitCode: number | null, stderr: string): SandboxError {
  const bwrapLines = stderr.split("\n").filter((line) => line.startsWith("bwrap: "));
  const reason = bwrapLines[0]?.slice("bwrap: ".length) ?? `exit status ${exitCode ?? "unknown"}`;
  return new SandboxError("ERR_SANDBOX_SETUP_FAILED", `Bubblewrap could not set up the sandbox: ${reason}`, {
    details: {
      command: bwrap,
      exitCode: exitCode ?? -1,
      stderr: truncateUtf8(stderr, SETUP_STDERR_BYTES).text,
      apparmorUserns: /RTM_NEWADDR|setting up uid map|Operation not permitted/.test(stderr),
    },
  });
}

/** What the native bridge prints (native/bridge.h) when it fails closed without its courier, then its run's token. */
export const COURIER_UNREACHABLE_MARK = "paperclip-sandbox bridge: ERR_SANDBOX_COURIER_UNREACHABLE: ";

/**
 * `ERR_SANDBOX_COURIER_UNREACHABLE`: the bridge was told a courier serves its run and could
 * not reach it, so it did not start the program (exit 125). `null` for any other outcome,
 * and for a run without a courier `token`: the program writes the same stderr and picks its
 * own status, so only a line carrying the run's token, which it never sees, is the bridge's.
 */
export function courierFailure(
  exitCode: number | null,
  stderr: string,
  token: string | null,
): SandboxError | null {
  if (exitCode !== 125 || !token) return null;
  const prefix = `${COURIER_UNREACHABLE_MARK}${token}: `;
  const line = stderr.split("\n").find((candidate) => candidate.startsWith(prefix));
  if (!line) return null;
  return new SandboxError(
    "ERR_SANDBOX_COURIER_UNREACHABLE",
    "The sandbox bridge could not reach its tunnel courier and did not start the program.",
    { details: { reason: line.slice(prefix.length).slice(0, 300) } },
  );
}

/** What the exec shim prints (native/exec-shim/bind-check.h) before the bind it found changed. */
export const BIND_CHANGED_MARK = "paperclip-sandbox: ERR_SANDBOX_BIND_CHANGED: ";
/** The shim's exit status then: the program did not run. */
export const BIND_CHANGED_STATUS = 122;

/**
 * `ERR_SANDBOX_BIND_CHANGED`: the exec shim found a bind that does not show what the host
 * checked, and did not start the program. `null` for any other outcome. A program could
 * print the same line and exit 122: it only fails its own run that way. Not retryable: a
 * program that keeps swapping the path, or a target spawned long after it was built, fails
 * every retry the same way (the registry entry lists the causes).
 */
export function bindChangedFailure(exitCode: number | null, stderr: string): SandboxError | null {
  if (exitCode !== BIND_CHANGED_STATUS) return null;
  const line = stderr.split("\n").find((candidate) => candidate.startsWith(BIND_CHANGED_MARK));
  if (line === undefined) return null;
  return new SandboxError(
    "ERR_SANDBOX_BIND_CHANGED",
    "A sandbox bind changed between its check and its mount; the program did not run.",
    {
      details: { destination: line.slice(BIND_CHANGED_MARK.length).slice(0, 300), stage: "sandbox" },
      retryable: false,
    },
  );
}
