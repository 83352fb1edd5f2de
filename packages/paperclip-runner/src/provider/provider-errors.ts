import { RunnerError } from "@paperclipai/errors";

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
