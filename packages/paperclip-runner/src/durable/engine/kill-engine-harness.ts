import { killStaleProcessGroup, processEnded } from "../../harness/process-identity.js";
import type { RunnerState } from "../../state/runner-state.js";
import { readStoredState } from "../../state/state-store.js";

/**
 * Kills the engine's live harness (its process group) as recorded in the engine's
 * durable state, without ending the run: used when the runner must stop with its
 * state kept, so that the next runner resumes the run instead of finding it ended.
 */
export async function killEngineHarness(engineDirectory: string): Promise<boolean> {
  const state = await readStoredState(engineDirectory, (text) => JSON.parse(text) as RunnerState).catch(
    () => null,
  );
  const harness = state?.harness;
  if (harness === null || harness === undefined || !killStaleProcessGroup(harness)) return false;
  // The runner exits right after this: it must not leave before its harness.
  await processEnded(harness);
  return true;
}
