import { RunnerError } from "@paperclipai/errors";
import { type RunnerState, STATE_FILE_SCHEMA, type StateBinding } from "./runner-state.js";

/** The previous schema differs only in having no journal beside it. */
const READABLE_SCHEMAS: readonly string[] = [STATE_FILE_SCHEMA, "paperclip-runner/runner-state/v2"];

export const BINDING_MISMATCH_MESSAGE = "durable state binding does not match this runner invocation";

/**
 * Checks a state file read from disk. Only the fields the daemon relies on for
 * exactly-once are checked deeply; a file that fails is refused, never repaired,
 * because guessing would risk running a command twice.
 */
export function parseRunnerState(text: string, binding: StateBinding): RunnerState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corruptState("it is not JSON");
  }
  if (!isObject(value) || !READABLE_SCHEMAS.includes(value.schema as string))
    throw corruptState(`its schema is not ${STATE_FILE_SCHEMA}`);
  const stored = value.binding;
  if (!isObject(stored)) throw corruptState("binding is missing");
  const mismatched = (["runId", "sessionId", "runnerId"] as const).filter(
    (key) => stored[key] !== binding[key],
  );
  if (mismatched.length > 0) {
    throw new RunnerError("ERR_RUNNER_STATE_BINDING_MISMATCH", BINDING_MISMATCH_MESSAGE, {
      details: { mismatched },
    });
  }
  for (const key of ["nextEventSeq", "ackedSeq", "lastControllerSeq", "restarts"] as const) {
    if (!Number.isSafeInteger(value[key]) || (value[key] as number) < 0)
      throw corruptState(`${key} is not a count`);
  }
  if ((value.nextEventSeq as number) < 1) throw corruptState("nextEventSeq is not a count");
  if (!Array.isArray(value.outbox)) throw corruptState("outbox is not an array");
  if (!isObject(value.journal)) throw corruptState("journal is not an object");
  for (const [commandId, entry] of Object.entries(value.journal)) {
    if (!isObject(entry) || entry.commandId !== commandId || typeof entry.fingerprint !== "string") {
      throw corruptState(`journal entry ${JSON.stringify(commandId).slice(0, 80)} is malformed`);
    }
    if (entry.status !== "pending" && entry.status !== "done" && entry.status !== "indeterminate") {
      throw corruptState(`journal entry ${JSON.stringify(commandId).slice(0, 80)} has an unknown status`);
    }
  }
  if (!isObject(value.run)) throw corruptState("run is not an object");
  // A v2 directory has no journal: its snapshot is the whole state, now written back as the current schema.
  return { ...value, schema: STATE_FILE_SCHEMA } as unknown as RunnerState;
}

/** `ERR_RUNNER_STATE_CORRUPT` with why (the snapshot or a journal line). */
export function corruptState(reason: string): RunnerError {
  return new RunnerError("ERR_RUNNER_STATE_CORRUPT", `durable state file is not valid: ${reason}`, {
    details: { reason },
  });
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
