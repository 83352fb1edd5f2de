import { CreateosError, PaperclipError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { deleteSandbox } from "./sandbox-api.js";

/** Why a sandbox is being ended; named in the error and in the plugin's health. */
export type EndOperation = "release" | "destroy" | "probe cleanup" | "shutdown";

/** How long a rollback or probe cleanup may take to delete its sandbox. */
export const CLEANUP_DELETE_MS = 15_000;

function summary(error: unknown): { code: string; message: string } {
  if (PaperclipError.is(error)) return { code: error.code, message: error.message };
  return { code: "UNKNOWN", message: error instanceof Error ? error.message : String(error) };
}

/**
 * Marks a sandbox that could not be ended and tells the host's log: the host (2026.916.1)
 * never reads the plugin's health and discards release errors, so this warning is what
 * reaches an operator. It names the sandbox, the step and the failure's code and message
 * (never the API key or URL, which no message of ours contains).
 */
function reportUnended(runtime: PluginRuntime, sandboxId: string, operation: string, error: unknown): void {
  runtime.leases.markUnended(sandboxId, operation);
  runtime.warn(
    `CreateOS sandbox ${sandboxId} could not be ended during ${operation}; it may still be running and billing. Delete it in CreateOS.`,
    { sandboxId, operation, failure: summary(error) },
  );
}

/**
 * Deletes a sandbox and forgets it. A delete that fails or is not confirmed marks the sandbox
 * (blocked, listed as unended) and throws `ERR_CREATEOS_SANDBOX_NOT_ENDED`: never silent.
 */
export async function endSandbox(
  runtime: PluginRuntime,
  client: CreateosClient,
  sandboxId: string,
  deadline: number,
  operation: EndOperation,
): Promise<void> {
  try {
    await deleteSandbox(client, sandboxId, deadline);
  } catch (error) {
    reportUnended(runtime, sandboxId, operation, error);
    throw new CreateosError(
      "ERR_CREATEOS_SANDBOX_NOT_ENDED",
      `CreateOS sandbox ${sandboxId} could not be ended during ${operation}; it may still be running.`,
      { cause: error, details: { sandboxId, operation, failure: summary(error) } },
    );
  }
  runtime.leases.forget(sandboxId);
}

/**
 * Deletes the sandbox of an acquire that failed after creating it, then rethrows the acquire's
 * error; when the delete fails too, throws `ERR_CREATEOS_ACQUIRE_ROLLBACK_FAILED` with
 * upstream's text (the host shows only that) and both failures in its details.
 */
export async function rollBackAcquire(
  runtime: PluginRuntime,
  client: CreateosClient,
  sandboxId: string,
  primary: unknown,
): Promise<never> {
  try {
    await deleteSandbox(client, sandboxId, runtime.cleanupDeadline(CLEANUP_DELETE_MS));
  } catch (error) {
    reportUnended(runtime, sandboxId, "acquire rollback", error);
    throw new CreateosError(
      "ERR_CREATEOS_ACQUIRE_ROLLBACK_FAILED",
      `CreateOS setup failed and cleanup is unconfirmed for sandbox ${sandboxId}.`,
      { cause: error, details: { sandboxId, primary: summary(primary), failure: summary(error) } },
    );
  }
  throw primary;
}
