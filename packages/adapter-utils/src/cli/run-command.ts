import { constants } from "node:os";
import path from "node:path";
import { isPathInside } from "../options/normalize-absolute-path.js";
import type { LocalProcessSandboxOptions } from "../sandbox-options.js";
import { runChildProcess } from "../spawn/run-child-process.js";
import type { RunCommandArgs } from "./parse-cli-args.js";

const GRACE_SEC = 5;

export function sandboxOptionsFor(
  args: RunCommandArgs,
  cwd: string,
  log: (line: string) => void,
): LocalProcessSandboxOptions {
  const workspaceDir = path.resolve(cwd, args.workspace ?? ".");
  const rw = args.rw.map((entry) => path.resolve(cwd, entry));
  const options: LocalProcessSandboxOptions = {
    workspaceDir,
    filesystemScope: args.hostFs ? null : "workspace",
    networkScope: args.net,
    extraPaths: [
      ...args.ro.map((entry) => ({ path: path.resolve(cwd, entry), access: "ro" as const })),
      ...rw.map((entry) => ({ path: entry, access: "rw" as const })),
    ],
    // --rw on the command line is the user's explicit consent to write there.
    outboundRestorePaths: rw,
  };
  if (args.net === "allowlist") {
    options.networkAllowlist = [...args.allow];
    options.networkTrustedUrls = [...args.trust];
    if (args.verbose) {
      options.onNetworkDecision = (decision) =>
        log(`paperclip-sandbox: ${decision.decision} ${decision.host}:${decision.port} (${decision.reason})`);
    }
  }
  return options;
}

/** Runs the command in the sandbox on this terminal; resolves with the exit status to use. */
export async function runSandboxedCommand(
  args: RunCommandArgs,
  log: (line: string) => void,
): Promise<number> {
  const cwd = process.cwd();
  const options = sandboxOptionsFor(args, cwd, log);
  const result = await runChildProcess("paperclip-sandbox", args.command, [...args.args], {
    cwd: args.hostFs || isPathInside(options.workspaceDir, cwd) ? cwd : options.workspaceDir,
    env: {},
    timeoutSec: args.timeoutSec,
    graceSec: GRACE_SEC,
    onLog: async () => {},
    stdio: "inherit",
    forwardSignals: ["SIGINT", "SIGTERM", "SIGHUP"],
    localProcessSandbox: options,
  });
  if (result.exitCode !== null) return result.exitCode;
  return 128 + (constants.signals[result.signal as NodeJS.Signals] ?? 0);
}
