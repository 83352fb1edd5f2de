import type WebSocket from "ws";
import type { ParsedFlags } from "../cli/flags.js";
import type { RunnerdIo } from "../cli/runnerd-io.js";
import { type CodexProviderState, loadCodexProviderState } from "../provider/codex-provider-state.js";
import { providerStateOwner } from "../provider/provider-state-files.js";
import { codexExecutor } from "../provider/start-codex-executor.js";
import { type DurableOptions, readDurableOptions } from "./durable-options.js";
import { DurableRunner } from "./durable-runner.js";
import type { EngineEvent } from "./engine/durable-engine.js";
import { EngineSeam } from "./engine/engine-seam.js";
import { recoveredEngineKind } from "./engine/recovered-engine.js";
import { ScriptedEngineSession } from "./engine/scripted-engine-session.js";
import { type DurableStore, openDurableStore } from "./state/durable-store.js";
import { recordedStreamEnd } from "./state/stream-end.js";
import { ticketMissing } from "./transport/bootstrap-ticket.js";
import { createDialer } from "./transport/dial.js";
import { dialAhead } from "./transport/dial-ahead.js";

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
  const dialer = await createDialer(options.endpoint);
  const dial = dialAhead(dialer);
  try {
    // The first connection opens while the recovered state is written back: nothing is sent on it
    // (the handshake waits for the store), only the server's upgrade overlaps the disk work. Not
    // before the state is read: a run the server revoked is refused without opening any.
    const store = await openDurableStore(
      options.stateDir,
      options.identity,
      { version: options.runnerVersion, digest: options.runnerDigest },
      () => dial.start(),
    );
    try {
      if (store.recovered !== null) {
        log(`resuming durable state (${store.recovered.indeterminate.length} indeterminate command(s))`);
      }
      await serveRun({ options, store, dial: dial.next, log }, ticket);
      return 0;
    } finally {
      await store.close();
    }
  } finally {
    await dial.discard();
    await dialer.close();
  }
}

interface DurableRun {
  readonly options: DurableOptions;
  readonly store: DurableStore;
  readonly dial: (signal?: AbortSignal) => Promise<WebSocket>;
  readonly log: (line: string) => void;
}

/** Serves the run with the engine the state directory already binds (on a restart) or the first `run.prepare` chooses. */
async function serveRun(run: DurableRun, ticket: string): Promise<void> {
  const { options, store, dial, log } = run;
  const scripted = new ScriptedEngineSession(options, store.engineDirectory, log);
  const scriptedOwnsRun = await scripted.ownsRecoveredRun();
  const recoveredProvider =
    providerStateOwner(options.stateDir) === null ? null : await loadCodexProviderState(options.stateDir);
  const recovered = recoveredEngineKind(recoveredProvider !== null, scriptedOwnsRun);
  // The previous runner journalled the end of the stream, unacknowledged: its engine is bound only if the run goes on.
  const recordedEnd = recordedStreamEnd(store.initial);
  const deferRecovered = recordedEnd !== null;
  let seam: EngineSeam | null = null;
  const runner = new DurableRunner(
    {
      options,
      store,
      dial,
      startEngine: (onEvent) => {
        seam = engineSeam(run, scripted, { recovered, deferRecovered, recoveredProvider }, onEvent);
        return seam;
      },
      killHarness: async () => {
        scripted.freeze();
        await (seam as EngineSeam | null)?.kill();
      },
      recordedEnd,
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
  recovery: {
    recovered: "provider" | "scripted" | null;
    deferRecovered: boolean;
    recoveredProvider: CodexProviderState | null;
  },
  onEvent: (event: EngineEvent) => Promise<void>,
): EngineSeam {
  return new EngineSeam({
    recovered: recovery.recovered,
    deferRecovered: recovery.deferRecovered,
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
