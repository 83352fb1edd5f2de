import { runDoctor } from "./doctor.js";
import { HELP_TEXT } from "./help-text.js";
import { parseCliArgs } from "./parse-cli-args.js";
import { formatDoctorReport } from "./print-doctor.js";
import { exitStatusFor, formatCliError } from "./report-error.js";
import { runSandboxedCommand } from "./run-command.js";

const logLine = (line: string) => process.stderr.write(`${line}\n`);

async function main(argv: readonly string[]): Promise<number> {
  const args = parseCliArgs(argv);
  switch (args.kind) {
    case "help":
      process.stdout.write(HELP_TEXT);
      return 0;
    case "version":
      process.stdout.write(`${__PACKAGE_VERSION__}\n`);
      return 0;
    case "doctor": {
      const checks = await runDoctor();
      process.stdout.write(
        args.json
          ? `${JSON.stringify(
              checks.map(({ error, ...check }) => ({ ...check, code: error?.code ?? null })),
              null,
              2,
            )}\n`
          : formatDoctorReport(checks),
      );
      return checks.some((check) => check.status === "fail") ? 1 : 0;
    }
    case "run":
      return runSandboxedCommand(args, logLine);
  }
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`paperclip-sandbox: ${formatCliError(error)}`);
    process.exitCode = exitStatusFor(error);
  },
);
