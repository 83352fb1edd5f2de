import { basename, dirname } from "node:path";
import { fakeHarnessEntry } from "../harness/fake/fake-harness-location.js";
import { buildHarnessEnv, passedValues } from "../harness/harness-env.js";
import type { HarnessSpawnSpec } from "../harness/harness-spawn-spec.js";
import type { HarnessLauncher } from "./harness-supervisor.js";
import type { LocalOptions } from "./local-options.js";
import { sandboxSpawnSpec } from "./sandbox-spawn-spec.js";

/**
 * How local mode starts its harness: the given command, or the built-in scripted
 * harness under the same Node, either directly or inside the adapter-utils sandbox.
 */
export function harnessLauncher(options: LocalOptions, parentEnv: NodeJS.ProcessEnv): HarnessLauncher {
  const env = buildHarnessEnv(parentEnv, options.passEnv, options.binding);
  const maskedValues = passedValues(parentEnv, options.passEnv);
  const plain = plainSpec(options);
  const sandbox = options.sandbox;
  return {
    label: plain.label,
    driverKind: options.harness.kind === "fake" ? "fake" : "command",
    sandboxed: sandbox !== null,
    async build(): Promise<HarnessSpawnSpec> {
      const cwd = sandbox?.workspace ?? process.cwd();
      if (sandbox === null) return { ...plain, cwd, env, sandboxed: false, maskedValues };
      const spec = await sandboxSpawnSpec({
        executable: plain.command,
        args: plain.args,
        workspace: sandbox.workspace,
        allow: sandbox.allow,
        readPaths: plain.readPaths,
        env,
        label: plain.label,
      });
      return { ...spec, maskedValues };
    },
  };
}

function plainSpec(options: LocalOptions): {
  command: string;
  args: readonly string[];
  label: string;
  readPaths: readonly string[];
} {
  if (options.harness.kind === "command") {
    return {
      command: options.harness.command,
      args: options.harness.args,
      label: basename(options.harness.command),
      readPaths: [],
    };
  }
  const entry = fakeHarnessEntry();
  const delay = options.harness.delayMs;
  return {
    command: process.execPath,
    args: [
      entry,
      "--script",
      options.harness.scriptPath,
      ...(delay === null ? [] : ["--delay-ms", String(delay)]),
    ],
    label: "fake-harness",
    // The bundle and its script must be visible inside the sandbox's fresh root.
    readPaths: [dirname(entry), options.harness.scriptPath],
  };
}
