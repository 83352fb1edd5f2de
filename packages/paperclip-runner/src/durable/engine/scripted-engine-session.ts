import type { StateStore } from "../../state/state-store.js";
import type { DurableOptions } from "../durable-options.js";
import type { EngineEvent } from "./durable-engine.js";
import { EngineBridge } from "./engine-bridge.js";
import type { BoundEngine } from "./engine-seam.js";
import { killEngineHarness } from "./kill-engine-harness.js";
import { scriptedEngineOwnsRun } from "./recovered-engine.js";
import {
  openScriptedEngineFiles,
  type ScriptedEngineFiles,
  scriptedStateWritten,
} from "./scripted-engine-files.js";

/**
 * The scripted engine's files for one durable run: set up when a run binds it
 * (or, on a restart, already did), so a provider run does not wait for them
 * before its provider starts. Once the runner fails the session is frozen: the
 * engine must not record anything more (a harness it sees die would end the run).
 */
export class ScriptedEngineSession {
  private files: Promise<ScriptedEngineFiles> | null = null;
  private frozen = false;

  constructor(
    private readonly options: DurableOptions,
    private readonly engineDirectory: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Whether an earlier runner left a scripted run here that has taken a command (opens its files if any exist). */
  async ownsRecoveredRun(): Promise<boolean> {
    if (!(await scriptedStateWritten(this.engineDirectory))) return false;
    const { store } = await this.open();
    return scriptedEngineOwnsRun(store);
  }

  /** Binds the scripted engine to the runner's event sink; its state writes stop once the session is frozen. */
  async bind(onEvent: (event: EngineEvent) => Promise<void>): Promise<BoundEngine> {
    const files = await this.open();
    const engineWrites = {
      ...files.store,
      save: (...written: Parameters<StateStore["save"]>) =>
        this.frozen ? new Promise<void>(() => undefined) : files.store.save(...written),
    };
    return {
      engine: new EngineBridge(engineWrites, files.launcher, onEvent),
      kill: async () => {
        this.freeze();
        await killEngineHarness(this.engineDirectory);
      },
    };
  }

  freeze(): void {
    this.frozen = true;
  }

  /** Closes the scripted state store if the run opened it (a failed open leaves nothing to close). */
  async close(): Promise<void> {
    await (await this.files?.catch(() => null))?.store.close();
  }

  private open(): Promise<ScriptedEngineFiles> {
    this.files ??= openScriptedEngineFiles(this.options, this.engineDirectory, this.log);
    return this.files;
  }
}
