import { PaperclipError } from "@paperclipai/errors";

/** Sandbox states reported by `GET /sandboxes/{id}`; `gone` stands for a 404. */
export type SandboxStatus =
  | "creating"
  | "running"
  | "pausing"
  | "paused"
  | "resuming"
  | "error"
  | "destroyed"
  | "failed"
  | "gone";

const KNOWN = new Set<string>([
  "creating",
  "running",
  "pausing",
  "paused",
  "resuming",
  "error",
  "destroyed",
  "failed",
]);

export function isSandboxStatus(value: unknown): value is Exclude<SandboxStatus, "gone"> {
  return typeof value === "string" && KNOWN.has(value);
}

/** States a sandbox cannot leave. */
export function isTerminal(status: SandboxStatus): boolean {
  return status === "error" || status === "failed" || status === "destroyed" || status === "gone";
}

/** States a sandbox never leaves that end its lease (it can only be replaced); `error` is not one. */
export function isEnded(status: string): boolean {
  return status === "gone" || status === "destroyed" || status === "failed";
}

/** A wait that ended because the sandbox is gone for good (not a timeout, not `error`). */
export function endedWhileWaiting(error: unknown): boolean {
  if (!PaperclipError.is(error, "ERR_CREATEOS_SANDBOX_STATE")) return false;
  return error.details.timedOut !== true && isEnded(String(error.details.status));
}

export type PollDecision = "done" | "poll" | "fail";

/**
 * Whether a wait for `target` is over. A state read right after a successful transition
 * POST may still show the old state (`from`): keep polling then, as for any transitional state.
 */
export function judgeTransition(
  status: SandboxStatus,
  target: "running" | "paused",
  from?: SandboxStatus,
): PollDecision {
  if (status === target) return "done";
  if (isTerminal(status)) return "fail";
  if (status === "creating" || status === "pausing" || status === "resuming") return "poll";
  if (from !== undefined && status === from) return "poll";
  return "fail";
}
