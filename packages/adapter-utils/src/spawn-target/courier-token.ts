import { randomBytes } from "node:crypto";
import type { LocalProcessSandboxSpawnTarget } from "../sandbox-options.js";

/**
 * The token of a run whose native bridge must reach a courier: the bridge gets it in its
 * env (removed before the program starts) and prints it with its "courier unreachable"
 * line. The program writes the same stderr and picks its own exit status, so only a line
 * carrying the token is the bridge's: the program never sees it.
 */
export function newCourierToken(): string {
  return randomBytes(16).toString("hex");
}

// Kept beside the target, not in it: the target's shape is upstream's, and its argv is the caller's.
const tokens = new WeakMap<LocalProcessSandboxSpawnTarget, string>();

export function rememberCourierToken(target: LocalProcessSandboxSpawnTarget, token: string): void {
  tokens.set(target, token);
}

/** The token a target's bridge prints when it fails closed, or `null` when it has no courier. */
export function courierTokenOf(target: LocalProcessSandboxSpawnTarget): string | null {
  return tokens.get(target) ?? null;
}
