import { randomUUID } from "node:crypto";
import type { CreateosClient } from "../client/createos-client.js";

/**
 * Stdin goes in as a file that the script redirects from (never through an input endpoint,
 * which races a fast exit). It may hold prompts and secrets, so it is removed after every
 * command, whatever the outcome.
 */
export function stdinFilePath(): string {
  return `/tmp/paperclip-stdin-${randomUUID()}`;
}

export async function stageStdin(
  client: CreateosClient,
  sandboxId: string,
  path: string,
  stdin: string,
  signal: AbortSignal,
): Promise<void> {
  await client.json({
    method: "PUT",
    path: `/sandboxes/${sandboxId}/files`,
    query: { path },
    bytes: Buffer.from(stdin, "utf8"),
    operation: "file transfer",
    idempotent: true,
    signal,
  });
}

/**
 * `/files` has no delete verb: a one-shot `rm` through `/exec`, with its own deadline (the
 * command's may be spent). Best effort, as upstream: a failure never hides the command's outcome.
 */
export async function removeStagedStdin(
  client: CreateosClient,
  sandboxId: string,
  path: string,
  timeoutMs: number,
): Promise<void> {
  await client
    .json({
      method: "POST",
      path: `/sandboxes/${sandboxId}/exec`,
      json: { cmd: "/bin/rm", args: ["-f", "--", path] },
      operation: "workspace command",
      idempotent: false,
      priority: "cleanup",
      signal: AbortSignal.timeout(timeoutMs),
      timeoutMs,
    })
    .catch(() => undefined);
}
