import { createHash, randomBytes } from "node:crypto";

/**
 * The random scope upstream's runner draws for its runtime request ids (16 bytes from the OS,
 * once per provider executor): ids from one runner cannot be guessed, nor collide with another
 * runner's, though Codex numbers its requests afresh in each process.
 */
export const newRuntimeRequestScope = (): Uint8Array => randomBytes(16);

const NUL = Buffer.of(0);

/**
 * Pure: a runtime request's id exactly as upstream's runner forms it (read from its binary's
 * `scoped_runtime_request_id`, then reproduced against its ids with the scope fixed):
 * `runtime-request-` and the hex sha256 of the scope, a NUL, the turn id, a NUL, the request's
 * key (Codex's JSON-RPC id, the OpenCode proxy's `requestId`), a NUL and the executor's request
 * sequence (from 1) as 8 big-endian bytes. The sequence makes a repeated question a new request.
 */
export function runtimeRequestId(scope: Uint8Array, turnId: string, key: string, sequence: bigint): string {
  const seq = Buffer.alloc(8);
  seq.writeBigUInt64BE(sequence);
  const digest = createHash("sha256")
    .update(scope)
    .update(NUL)
    .update(turnId)
    .update(NUL)
    .update(key)
    .update(NUL)
    .update(seq)
    .digest("hex");
  return `runtime-request-${digest}`;
}
