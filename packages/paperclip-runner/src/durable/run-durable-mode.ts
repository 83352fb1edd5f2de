import type { ParsedFlags } from "../cli/flags.js";
import type { RunnerdIo } from "../cli/runnerd-io.js";
import { loadCodexProviderState } from "../provider/codex-provider-state.js";
import { providerStateOwner } from "../provider/provider-state-files.js";
import { codexExecutor } from "../provider/start-codex-executor.js";
import type { StateStore } from "../state/state-store.js";
import { readDurableOptions } from "./durable-options.js";
import { DurableRunner } from "./durable-runner.js";
import { EngineBridge } from "./engine/engine-bridge.js";
import { EngineSeam } from "./engine/engine-seam.js";
import { killEngineHarness } from "./engine/kill-engine-harness.js";
import {
  openScriptedEngineFiles,
  type ScriptedEngineFiles,
  scriptedStateWritten,
} from "./engine/scripted-engine-files.js";
import { openDurableStore } from "./state/durable-store.js";
import { ticketMissing } from "./transport/bootstrap-ticket.js";
import { createDialer } from "./transport/dial.js";

/**
 * Durable mode: the runner dials the Paperclip server (or accepts its
 * connection), authenticates with the one-time ticket, and serves one run over
 * the encrypted, acknowledged, resumable PRP channel until the server ends the
 * command stream. A transport failure throws a coded error with the state
 * directory intact; the server restarts the runner with a fresh ticket and it
 * resumes from there.
 */
export async function runDurableMode(
  flags: ParsedFlags,
  io: RunnerdIo,
  ticket: string | null,
): Promise<number> {
  const options = readDurableOptions(flags);
  if (ticket === null) throw ticketMissing();
  const log = (line: string): void => {
    io.stderr.write(`paperclip-runnerd: ${line}\n`);
  };
  if (options.ignoredProviderFlags.length > 0) {
    log(
      `the acpx provider is not built into this runner; ignored: ${options.ignoredProviderFlags.join(", ")}`,
    );
  }
  const store = await openDurableStore(options.stateDir, options.identity, {
    version: options.runnerVersion,
    digest: options.runnerDigest,
  });
  const dialer = await createDialer(options.endpoint);
  try {
    if (store.recovered !== null) {
      log(`resuming durable state (${store.recovered.indeterminate.length} indeterminate command(s))`);
    }
    // The scripted engine's files are set up when a run binds it (or, on a restart, already
    // did): a provider run does not wait for them before its provider starts.
    let scriptedFiles: Promise<ScriptedEngineFiles> | null = null;
    const openScripted = (): Promise<ScriptedEngineFiles> => {
      scriptedFiles ??= openScriptedEngineFiles(options, store.engineDirectory, log);
      return scriptedFiles;
    };
    let scriptedStateExists = false;
    if (await scriptedStateWritten(store.engineDirectory)) {
      const { store: engineStore } = await openScripted();
      // The scripted engine owns a resumed run once it has taken a command.
      scriptedStateExists = engineStore.recovery !== null && engineStore.initial.lastControllerSeq > 0;
    }
    // Once the runner fails, the engine must not record anything more (a harness it sees die would end the run).
    let frozen = false;
    const providerOwner = providerStateOwner(options.stateDir);
    const recoveredProvider = providerOwner === null ? null : await loadCodexProviderState(options.stateDir);
    let seam: EngineSeam | null = null;
    const runner = new DurableRunner(
      {
        options,
        store,
        dial: () => dialer.next(),
        startEngine: (onEvent) => {
          seam = new EngineSeam({
            recovered: recoveredProvider !== null ? "provider" : scriptedStateExists ? "scripted" : null,
            scripted: async () => {
              const files = await openScripted();
              const engineWrites = {
                ...files.store,
                save: (state: Parameters<StateStore["save"]>[0]) =>
                  frozen ? new Promise<void>(() => undefined) : files.store.save(state),
              };
              return {
                engine: new EngineBridge(engineWrites, files.launcher, onEvent),
                kill: async () => {
                  frozen = true;
                  await killEngineHarness(store.engineDirectory);
                },
              };
            },
            provider: () => {
              const executor = codexExecutor(
                options,
                store.initial.engineEventSeq,
                recoveredProvider,
                onEvent,
              );
              return { engine: executor, kill: () => executor.kill() };
            },
          });
          return seam;
        },
        killHarness: async () => {
          frozen = true;
          await (seam as EngineSeam | null)?.kill();
        },
        log,
      },
      ticket,
    );
    try {
      await runner.run();
    } finally {
      await (await (scriptedFiles as Promise<ScriptedEngineFiles> | null)?.catch(() => null))?.store.close();
    }
    return 0;
  } finally {
    await dialer.close();
    await store.close();
  }
}
