import type { Writable } from "node:stream";
import { takeBootstrapTicket } from "../durable/transport/bootstrap-ticket.js";
import type { LocalModeRunner } from "./runnerd-cli.js";
import { createRunnerdCli } from "./runnerd-cli.js";

// Before anything else: the one-time ticket leaves the environment, so no child and no later code sees it.
const bootstrapTicket = takeBootstrapTicket(process.env);

let stderrOpened = false;
/** process.stderr, opened on first use. */
function stderr(): Writable {
  if (!stderrOpened) {
    stderrOpened = true;
    // A launcher that closed our stderr cannot be told anything there: its EPIPE is not a
    // failure to report (reporting it would write to stderr again, and again). The
    // diagnostics file still gets the failures that matter.
    process.stderr.on("error", () => undefined);
  }
  return process.stderr;
}

// The bin entry: the only module with process-wide side effects.
const cli = createRunnerdCli(process.argv.slice(2), {
  // Opened on first use: only local mode reads stdin and writes its stream to stdout, and a
  // durable session writes to stderr only when something goes wrong; opening any of them
  // would be part of every session's start.
  get stdin() {
    return process.stdin;
  },
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return stderr();
  },
});

const flushed = (stream: Writable): Promise<void> =>
  new Promise((resolve) => stream.write("", () => resolve()));

/**
 * Exits once everything is reported: one turn of the event loop first, so an
 * exception or rejection queued during shutdown is still caught and persisted;
 * then any report in flight; then both streams, so a piped diagnostic is never cut.
 */
async function exit(code: number): Promise<never> {
  await new Promise((resolve) => setImmediate(resolve));
  let status = await cli.settled(code);
  await flushed(process.stdout);
  await flushed(stderr());
  status = await cli.settled(status);
  process.exit(status);
}

process.on("uncaughtException", (error) => {
  void cli.fatal("uncaught exception", error).then(exit);
});
process.on("unhandledRejection", (reason) => {
  void cli.fatal("unhandled rejection", reason).then(exit);
});

// Loaded only when needed, after the handlers above: a broken install of a local-mode
// dependency is then a persisted diagnostic, and --build-metadata never depends on it.
const runLocalMode: LocalModeRunner = async (flags, io) => {
  const durable = await import("../durable/durable-options.js");
  if (durable.isDurableMode(flags)) {
    const { runDurableMode } = await import("../durable/run-durable-mode.js");
    return await runDurableMode(flags, io, bootstrapTicket);
  }
  const local = await import("../local/run-local-mode.js");
  return await local.runLocalMode(flags, io);
};

void cli.run(runLocalMode).then(exit);
