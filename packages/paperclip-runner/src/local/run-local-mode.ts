import type { Readable, Writable } from "node:stream";
import type { ParsedFlags } from "../cli/flags.js";
import { memoryStateStore, openDurableStateStore } from "../state/state-store.js";
import { controllerLines } from "./controller-lines.js";
import { harnessLauncher } from "./harness-launcher.js";
import { readLocalOptions } from "./local-options.js";
import { LocalRunner } from "./local-runner.js";
import { localTimings } from "./local-timings.js";

export interface LocalModeIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

/**
 * Local mode: controller commands as JSON lines on `stdin`, events and receipts
 * as JSON lines on `stdout`, one supervised harness. Resolves with 0 once the
 * run's `run.terminal` event is written (whatever the run's outcome: that is in
 * the event); throws a coded `RunnerError` when the daemon itself cannot go on
 * (bad flags, a state directory that is not private, a state file of another run).
 * SIGTERM and SIGINT stop the run as `runner.shutdown` would.
 */
export async function runLocalMode(flags: ParsedFlags, io: LocalModeIo): Promise<number> {
  const options = readLocalOptions(flags, process.env);
  const store =
    options.stateDir === null
      ? memoryStateStore(options.binding)
      : await openDurableStateStore(options.stateDir, options.binding);
  if (store.recovery !== null) {
    io.stderr.write(
      `paperclip-runnerd: resuming durable state (restart ${store.recovery.state.restarts}, ` +
        `${store.recovery.indeterminate.length} indeterminate command(s))\n`,
    );
  }
  const runner = new LocalRunner(
    store,
    harnessLauncher(options, process.env),
    io.stdout,
    localTimings(options.limits),
    options.limits,
  );
  const input = controllerLines(io.stdin, options.limits.controllerMaxLineBytes);
  const onSignal = (): void => runner.requestShutdown();
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  try {
    return await runner.run(input);
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    input.stop();
    await store.close();
  }
}
