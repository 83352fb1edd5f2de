import { join } from "node:path";
import { killStaleProcessGroup } from "../harness/process-identity.js";
import { STATE_FILE_NAME } from "../state/runner-state.js";
import { readStateFile } from "../state/state-store.js";

/**
 * Kills the engine's live harness (its process group) as recorded in the engine's
 * durable state, without ending the run: used when the runner must stop with its
 * state kept, so that the next runner resumes the run instead of finding it ended.
 */
export async function killEngineHarness(engineDirectory: string): Promise<boolean> {
  const text = await readStateFile(join(engineDirectory, STATE_FILE_NAME)).catch(() => null);
  if (text === null) return false;
  const harness = (JSON.parse(text) as { harness?: { pid: number; startTime: string } | null }).harness;
  return harness !== null && harness !== undefined && killStaleProcessGroup(harness);
}
