import { RunnerError, redactSecrets } from "@paperclipai/errors";

/** Why the provider could not be used, as one coded error (never carrying provider output verbatim). */
export function providerStartFailed(reason: string): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_PROVIDER_START_FAILED",
    `the provider process could not start: ${reason}`,
    {
      details: { reason },
    },
  );
}

export function providerProtocol(reason: string): RunnerError {
  return new RunnerError("ERR_RUNNER_PROVIDER_PROTOCOL", `provider protocol violation: ${reason}`, {
    details: { reason },
  });
}

export function providerTimeout(method: string, timeoutMs: number): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_PROVIDER_TIMEOUT",
    `the provider did not answer ${method} within ${timeoutMs} ms`,
    { details: { method, timeoutMs } },
  );
}

/** Upstream's bound on a provider's error text the runner repeats. */
const MAX_PROVIDER_MESSAGE_CHARS = 1000;

/**
 * The provider answered a request with a JSON-RPC error: its code and its message,
 * redacted and bounded (the provider's text may carry a credential).
 */
export function providerRequestFailed(method: string, rpcCode: number | null, message: string): RunnerError {
  const providerMessage = redactSecrets(message).slice(0, MAX_PROVIDER_MESSAGE_CHARS);
  return new RunnerError(
    "ERR_RUNNER_PROVIDER_REQUEST_FAILED",
    `the provider answered ${method} with an error: ${providerMessage}`,
    { details: { method, rpcCode, providerMessage } },
  );
}

/** The error details of a refusal `providerRequestFailed` made, else null. */
export function providerRefusal(error: unknown): { rpcCode: number | null; providerMessage: string } | null {
  if (!(error instanceof RunnerError) || error.code !== "ERR_RUNNER_PROVIDER_REQUEST_FAILED") return null;
  const { rpcCode, providerMessage } = error.details as { rpcCode: number | null; providerMessage: string };
  return { rpcCode, providerMessage };
}
