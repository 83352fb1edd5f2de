import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync } from "node:fs";
import { invalidArgument } from "../cli/flags.js";
import { configInvalid } from "./codex-provider-config.js";

/** The runner-owned OpenCode launch profile the server passes (`--opencode-*` flags). */
export interface OpencodeLaunchProfile {
  readonly command: string;
  readonly commandSha256: string;
  readonly proxyScript: string;
  readonly proxyScriptSha256: string;
  readonly executable: string;
  readonly executableSha256: string;
}

/** The argument upstream's proxy takes the verified `opencode` binary by (a `/proc/self/fd/N` path). */
export const TRUSTED_OPENCODE_EXECUTABLE_ARG = "--paperclip-trusted-opencode-executable";
/** The descriptor the verified executable is handed over as (the first after stdio). */
export const OPENCODE_EXECUTABLE_FD = 3;

const FLAGS = {
  command: "--opencode-proxy-command",
  commandSha256: "--opencode-proxy-command-sha256",
  proxyScript: "--opencode-proxy-script",
  proxyScriptSha256: "--opencode-proxy-script-sha256",
  executable: "--opencode-executable",
  executableSha256: "--opencode-executable-sha256",
} as const;

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** Pure over the flags: the profile when the server passed one (all six flags, digests well formed). */
export function readOpencodeLaunchProfile(
  value: (name: (typeof FLAGS)[keyof typeof FLAGS]) => string | undefined,
): OpencodeLaunchProfile | null {
  const entries = Object.entries(FLAGS).map(([key, flag]) => [key, value(flag), flag] as const);
  if (entries.every(([, given]) => given === undefined)) return null;
  for (const [key, given, flag] of entries) {
    if (given === undefined)
      throw invalidArgument(flag, "the OpenCode launch profile needs all six --opencode-* flags");
    if (key.endsWith("Sha256") && !DIGEST.test(given)) throw invalidArgument(flag, "must be sha256:<64 hex>");
  }
  return Object.fromEntries(entries.map(([key, given]) => [key, given])) as unknown as OpencodeLaunchProfile;
}

/**
 * The launch of an OpenCode run, checked against the profile as upstream's runner
 * does: `run.prepare`'s command and args must be exactly the profile's proxy
 * command and script, and the three artifacts must hash to their digests. The
 * executable is opened once, checked through that descriptor, and handed to the
 * proxy as `/proc/self/fd/3`, so what runs is what was checked.
 */
export function verifiedOpencodeLaunch(
  profile: OpencodeLaunchProfile | null,
  config: { readonly command: string; readonly args: readonly string[] },
): { readonly args: string[]; readonly executableFd: number } {
  if (profile === null) throw configInvalid("an opencode run needs the runner's --opencode-* launch profile");
  if (
    config.command !== profile.command ||
    config.args.length !== 1 ||
    config.args[0] !== profile.proxyScript
  ) {
    throw configInvalid(
      "the opencode command and args must be the launch profile's proxy command and script",
    );
  }
  checkDigest(readFileSync(profile.command), profile.commandSha256, "the opencode proxy command");
  checkDigest(readFileSync(profile.proxyScript), profile.proxyScriptSha256, "the opencode proxy script");
  const fd = openSync(profile.executable, "r");
  try {
    checkDigest(readFileSync(fd), profile.executableSha256, "the opencode executable");
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return {
    args: [profile.proxyScript, TRUSTED_OPENCODE_EXECUTABLE_ARG, `/proc/self/fd/${OPENCODE_EXECUTABLE_FD}`],
    executableFd: fd,
  };
}

function checkDigest(bytes: Buffer, expected: string, what: string): void {
  const actual = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (actual !== expected) throw configInvalid(`${what} does not match its sha256 digest`);
}
