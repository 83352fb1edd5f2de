import { runLocalMode } from "../local/run-local-mode.js";
import { createRunnerdCli } from "./runnerd-cli.js";

// The bin entry: the only module with process-wide side effects.
const cli = createRunnerdCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});

// Exit only once both streams have flushed what was written, so a piped diagnostic is never cut.
function exitAfterFlush(code: number): void {
  process.exitCode = code;
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

process.on("uncaughtException", (error) => {
  void cli.fatal("uncaught exception", error).then(exitAfterFlush);
});
process.on("unhandledRejection", (reason) => {
  void cli.fatal("unhandled rejection", reason).then(exitAfterFlush);
});

void cli.run(runLocalMode).then(exitAfterFlush);
