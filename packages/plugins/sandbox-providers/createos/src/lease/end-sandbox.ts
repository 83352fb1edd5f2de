import { CreateosError, PaperclipError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { deleteSandbox } from "./sandbox-api.js";

/** Why a sandbox is being ended; named in the error and in the plugin's health. */
export type EndOperation = "release" | "destroy" | "probe cleanup";

/** How long a rollback or probe cleanup may take to delete its sandbox. */
export const CLEANUP_DELETE_MS = 15_000;

function summary(error: unknown): { code: string; message: string } {
  if (PaperclipError.is(error)) return { code: error.code, message: error.message };
  return { code: "UNKNOWN", message: error instanceof Error ? error.message : String(error) };
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
    runtime.leases.markUnended(sandboxId, operation);
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
    await deleteSandbox(client, sandboxId, Date.now() + CLEANUP_DELETE_MS);
  } catch (error) {
    runtime.leases.markUnended(sandboxId, "acquire rollback");
    throw new CreateosError(
      "ERR_CREATEOS_ACQUIRE_ROLLBACK_FAILED",
      `CreateOS setup failed and cleanup is unconfirmed for sandbox ${sandboxId}.`,
      { cause: error, details: { sandboxId, primary: summary(primary), failure: summary(error) } },
    );
  }
  throw primary;
}
