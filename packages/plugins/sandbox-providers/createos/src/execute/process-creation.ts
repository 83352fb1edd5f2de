import { CreateosApiError, CreateosError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import { resourceId } from "../client/envelope.js";
import { processPath } from "./process-api.js";
import type { ProcessCommand } from "./shell-script.js";

/** Told when the process's fate is unknown, so the lease is not reused until destroyed. */
export interface LeaseGuard {
  block(reason: "process creation" | "process cleanup"): void;
}

/** A definite rejection (4xx) created nothing; anything else may have created a process we cannot name. */
export function isDefiniteRejection(error: unknown): boolean {
  return error instanceof CreateosApiError && error.status >= 400 && error.status < 500;
}

/** Creates the process: never retried, and an unconfirmed outcome blocks the lease. */
export async function createProcess(
  client: CreateosClient,
  sandboxId: string,
  started: ProcessCommand,
  signal: AbortSignal,
  guard: LeaseGuard | undefined,
): Promise<string> {
  signal.throwIfAborted();
  try {
    const reply = await client.json({
      method: "POST",
      path: processPath(sandboxId),
      json: { cmd: started.cmd, args: started.args },
      operation: "process creation",
      idempotent: false,
      signal,
    });
    return resourceId(reply.data?.process_id);
  } catch (error) {
    if (isDefiniteRejection(error)) throw error;
    guard?.block("process creation");
    throw new CreateosError(
      "ERR_CREATEOS_PROCESS_UNCONFIRMED",
      "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
      { cause: error, details: { leaseBlocked: true } },
    );
  }
}
