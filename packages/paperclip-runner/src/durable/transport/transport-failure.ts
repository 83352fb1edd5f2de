import { PaperclipError, RunnerError, redactSecrets, truncateUtf8 } from "@paperclipai/errors";

const MAX_SUMMARY_BYTES = 1024;

export function leaseExpired(expiresAtUnixMs: number): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_DURABLE_LEASE_EXPIRED",
    "connection lease expired or was revoked; durable state is preserved",
    { details: { expiresAtUnixMs } },
  );
}

export function reconnectDeadline(attempts: number): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_DURABLE_RECONNECT_DEADLINE",
    "transport reconnect deadline elapsed; durable state is preserved",
    { details: { attempts } },
  );
}

/** A failure to reach the server at all (refused, reset, DNS): worth another attempt. */
export function isConnectError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && !code.startsWith("ERR_RUNNER_");
}

/** `CODE: message`, redacted and bounded: what the state file says about the failure that stopped the runner. */
export function failureSummary(error: unknown): string {
  const code = PaperclipError.is(error) ? `${error.code}: ` : "";
  const message = error instanceof Error ? error.message : String(error);
  return truncateUtf8(redactSecrets(`${code}${message}`), MAX_SUMMARY_BYTES).text;
}
