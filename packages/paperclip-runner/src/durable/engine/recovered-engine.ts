import type { StateStore } from "../../state/state-store.js";

/** Which engine a restarted runner rebinds: a provider state file wins, then a scripted run that took a command. */
export function recoveredEngineKind(
  providerStateRecovered: boolean,
  scriptedOwnsRun: boolean,
): "provider" | "scripted" | null {
  if (providerStateRecovered) return "provider";
  return scriptedOwnsRun ? "scripted" : null;
}

/** The scripted engine owns a resumed run once it has taken a command. */
export function scriptedEngineOwnsRun(store: Pick<StateStore, "recovery" | "initial">): boolean {
  return store.recovery !== null && store.initial.lastControllerSeq > 0;
}
