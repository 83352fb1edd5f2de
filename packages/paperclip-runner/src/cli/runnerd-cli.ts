import type { FailureKind } from "../diagnostics/describe-failure.js";
import { buildMetadata } from "./build-metadata.js";
import { RUNNERD_FLAGS } from "./flag-definitions.js";
import { invalidArgument, type ParsedFlags, parseFlags } from "./flags.js";
import { printableFlag } from "./printable-flag.js";
import { reportFailure } from "./report-failure.js";
import type { RunnerdIo } from "./runnerd-io.js";
import { usage } from "./usage.js";

/** Local mode, implemented in `src/local/`: resolves to the exit status; a throw is a daemon failure. */
export type LocalModeRunner = (flags: ParsedFlags, io: RunnerdIo) => Promise<number>;

export interface RunnerdCli {
  /** Runs the mode the flags select; never rejects. Resolves to the exit status. */
  run(runLocalMode: LocalModeRunner): Promise<number>;
  /** Reports a failure that escaped `run` (uncaught exception, unhandled rejection). Resolves to 1. */
  fatal(kind: FailureKind, error: unknown): Promise<number>;
  /** The exit status to use now: 1 once a failure was reported (after its report is done), else `code`. */
  settled(code: number): Promise<number>;
}

/** How many failures after the first are still printed to stderr. */
export const MAX_LATER_FAILURES_PRINTED = 8;

/**
 * The daemon's command line. `--diagnostics-directory` is read before
 * anything else, so every failure after this point, a malformed flag
 * included, is persisted there.
 */
export function createRunnerdCli(argv: readonly string[], io: RunnerdIo): RunnerdCli {
  const flags = parseFlags(argv);
  let diagnosticsDirectory: string | undefined;
  let earlyError: unknown;
  try {
    diagnosticsDirectory = flags.value("--diagnostics-directory");
  } catch (error) {
    earlyError = error;
  }
  const context: string[] = [];
  if (flags.unknown.length > 0) {
    context.push(`ignored unknown flags: ${flags.unknown.map(printableFlag).join(", ")}`);
  }
  if (flags.strayArguments > 0) context.push(`ignored stray arguments: ${flags.strayArguments}`);

  let failing: Promise<number> | undefined;
  let laterFailures = 0;
  const fail = (kind: FailureKind, error: unknown): Promise<number> => {
    if (failing !== undefined) {
      // A later failure while the first is being persisted: stderr only, one file per daemon,
      // and only a few, so a failure that each report triggers again cannot loop forever.
      laterFailures += 1;
      if (laterFailures > MAX_LATER_FAILURES_PRINTED) return failing;
      void reportFailure(kind, error, {
        diagnosticsDirectory: undefined,
        context: [],
        stderr: io.stderr,
      }).catch(() => undefined);
      return failing;
    }
    // Never rejects: a rejected report would itself be an unhandled rejection, reported forever.
    failing = reportFailure(kind, error, { diagnosticsDirectory, context, stderr: io.stderr }).then(
      () => 1,
      () => 1,
    );
    return failing;
  };

  const select = async (runLocalMode: LocalModeRunner): Promise<number> => {
    if (earlyError !== undefined) throw earlyError;
    for (const line of context) io.stderr.write(`paperclip-runnerd: ${line}\n`);
    if (flags.has("--build-metadata")) {
      const alone = 1 + (flags.has("--diagnostics-directory") ? 2 : 0);
      if (flags.count !== alone) throw invalidArgument("--build-metadata", "must be the only argument");
      io.stdout.write(`${JSON.stringify(buildMetadata())}\n`);
      return 0;
    }
    if (flags.has("--help")) {
      io.stdout.write(usage(RUNNERD_FLAGS));
      return 0;
    }
    flags.assertValuesPresent();
    return await runLocalMode(flags, io);
  };

  return {
    async run(runLocalMode) {
      try {
        return await select(runLocalMode);
      } catch (error) {
        return await fail("error", error);
      }
    },
    fatal: fail,
    settled: async (code) => (failing === undefined ? code : await failing),
  };
}
