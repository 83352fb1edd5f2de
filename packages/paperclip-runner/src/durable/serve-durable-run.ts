// The engines' side of durable mode, a module of its own so that the bin evaluates it (the Codex
// executor, the scripted harness, the runner's loop) while the first connection is being opened.
import type WebSocket from "ws";
import { type CodexProviderState, loadCodexProviderState } from "../provider/codex-provider-state.js";
import { providerStateOwner } from "../provider/provider-state-files.js";
import { codexExecutor } from "../provider/start-codex-executor.js";
import type { DurableOptions } from "./durable-options.js";
import { DurableRunner } from "./durable-runner.js";
import type { EngineEvent } from "./engine/durable-engine.js";
import { EngineSeam } from "./engine/engine-seam.js";
import { recoveredEngineKind } from "./engine/recovered-engine.js";
import { ScriptedEngineSession } from "./engine/scripted-engine-session.js";
import type { DurableStore } from "./state/durable-store.js";

/** What durable mode has ready once its options are read, the first connection dialled and the state directory open. */
export interface DurableRun {
  readonly options: DurableOptions;
  readonly store: DurableStore;
  readonly dial: () => Promise<WebSocket>;
  readonly log: (line: string) => void;
}

/** Serves the run with the engine the state directory already binds (on a restart) or the first `run.prepare` chooses. */
export async function serveRun(run: DurableRun, ticket: string): Promise<void> {
  const { options, store, dial, log } = run;
  const scripted = new ScriptedEngineSession(options, store.engineDirectory, log);
  const scriptedOwnsRun = await scripted.ownsRecoveredRun();
  const recoveredProvider =
    providerStateOwner(options.stateDir) === null ? null : await loadCodexProviderState(options.stateDir);
  const recovered = recoveredEngineKind(recoveredProvider !== null, scriptedOwnsRun);
  let seam: EngineSeam | null = null;
  const runner = new DurableRunner(
    {
      options,
      store,
      dial,
      startEngine: (onEvent) => {
        seam = engineSeam(run, scripted, { recovered, recoveredProvider }, onEvent);
        return seam;
      },
      killHarness: async () => {
        scripted.freeze();
        await (seam as EngineSeam | null)?.kill();
      },
      log,
    },
    ticket,
  );
  try {
    await runner.run();
  } finally {
    await scripted.close();
  }
}

/** The seam binding the scripted engine or the Codex provider executor, both reporting to `onEvent`. */
function engineSeam(
  run: DurableRun,
  scripted: ScriptedEngineSession,
  recovery: { recovered: "provider" | "scripted" | null; recoveredProvider: CodexProviderState | null },
  onEvent: (event: EngineEvent) => Promise<void>,
): EngineSeam {
  return new EngineSeam({
    recovered: recovery.recovered,
    scripted: () => scripted.bind(onEvent),
    provider: () => {
      const executor = codexExecutor(
        run.options,
        run.store.initial.engineEventSeq,
        recovery.recoveredProvider,
        onEvent,
      );
      return { engine: executor, kill: () => executor.kill() };
    },
  });
}
