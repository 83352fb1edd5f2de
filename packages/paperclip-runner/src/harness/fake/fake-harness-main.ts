/**
 * The built-in scripted harness: a real child process speaking the harness
 * protocol, driven by a JSON script of this package's format or upstream's
 * (`paperclip.fake_harness.script.v1`), for tests, the demo and upstream's
 * controller. Node built-ins only: it also runs inside the sandbox, where
 * nothing but this bundle and Node are mounted.
 */
import { invalidArgument, parseFlags } from "../../cli/flags.js";
import { loadScript } from "./load-script.js";
import { runOwnScript } from "./run-own-script.js";
import { runUpstreamScript } from "./run-upstream-script.js";

const FLAGS = {
  "--script": { kind: "value", description: "the script" },
  "--delay-ms": { kind: "value", description: "replaces the time of every delay step (upstream scripts)" },
} as const;

/** Resolves with an exit code when the script says the harness is done, or null when it stays for its `on` handlers. */
async function main(): Promise<number | null> {
  const flags = parseFlags(process.argv.slice(2), FLAGS);
  const scriptPath = flags.required("--script");
  const delay = flags.value("--delay-ms");
  const delayOverrideMs = delay === undefined ? null : Number(delay);
  if (delayOverrideMs !== null && !(Number.isSafeInteger(delayOverrideMs) && delayOverrideMs >= 0)) {
    throw invalidArgument("--delay-ms", "must be a non-negative integer");
  }
  const load = loadScript(scriptPath);
  if (!load.ok) throw invalidArgument("--script", load.reason);
  if (load.loaded.format === "upstream") return runUpstreamScript(load.loaded.script, delayOverrideMs);
  // After its steps an own-format script stays, serving its `on` handlers, until stdin closes.
  await runOwnScript(load.loaded.script);
  return null;
}

main().then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`fake harness: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
