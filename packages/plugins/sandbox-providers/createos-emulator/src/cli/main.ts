import { PaperclipError } from "@paperclipai/errors";
import { readFaultPlanFile } from "../fault-book.js";
import { startCreateosEmulator } from "../start-emulator.js";
import { VERSION } from "../version.js";
import { parseCliArgs, USAGE } from "./parse-args.js";

async function main(argv: readonly string[]): Promise<number> {
  const command = parseCliArgs(argv);
  if (command.action === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.action === "version") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const faults = command.faultsFile === undefined ? undefined : readFaultPlanFile(command.faultsFile);
  const emulator = await startCreateosEmulator({ ...command.options, ...(faults ? { faults } : {}) });
  if (command.json) {
    process.stdout.write(`${JSON.stringify({ url: emulator.url, apiKey: emulator.apiKey })}\n`);
  } else {
    process.stdout.write(
      `CreateOS emulator listening on ${emulator.url}\n` +
        `  apiUrl:  ${emulator.url}/v1\n  API key: ${emulator.apiKey}\n` +
        "Press Ctrl-C to stop.\n",
    );
  }
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await emulator.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (PaperclipError.is(error))
      process.stderr.write(`createos-emulator: [${error.code}] ${error.message}\n`);
    else
      process.stderr.write(`createos-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
