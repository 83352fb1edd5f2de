import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { invalidArgument } from "../cli/flags.js";
import { errnoCode } from "../private-fs/os-error.js";
import { writePrivateCopy } from "../private-fs/private-copy.js";
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
/** The descriptor the verified proxy command is handed over as, and executed through. */
export const OPENCODE_COMMAND_FD = 4;
/** The state directory's subdirectory (0700) holding the private copy of the checked proxy script. */
export const OPENCODE_LAUNCH_DIR = "opencode-launch";

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

/** A checked OpenCode launch: spawn `command` (as `argv0`) with `args`, `extraFds` as fds 3 and 4. */
export interface VerifiedOpencodeLaunch {
  readonly command: string;
  readonly argv0: string;
  readonly args: string[];
  /** Owned by the caller: the spawn hands them over and closes them. */
  readonly extraFds: number[];
}

/**
 * The launch of an OpenCode run, checked against the profile as upstream's runner
 * does: `run.prepare`'s command and args must be exactly the profile's proxy
 * command and script, and the three artifacts must hash to their digests.
 *
 * What runs is exactly what was hashed, whoever can write the artifacts' directories:
 * each artifact is opened once and hashed through its descriptor; the executable is
 * handed to the proxy as `/proc/self/fd/3` and the proxy command is executed through
 * `/proc/self/fd/4` (the kernel runs the opened inode, not whatever the path names by
 * then). The script is read by its interpreter by path (Node resolves a `/proc/self/fd`
 * path back to the file's name), so the checked bytes are copied into a 0700 directory
 * of the state directory, keeping the script's name, and that copy is what runs.
 */
export function verifiedOpencodeLaunch(
  profile: OpencodeLaunchProfile | null,
  config: { readonly command: string; readonly args: readonly string[] },
  stateDir: string,
): VerifiedOpencodeLaunch {
  const checked = openCheckedArtifacts(profile, config);
  try {
    const script = writePrivateCopy(
      join(stateDir, OPENCODE_LAUNCH_DIR),
      basename(checked.profile.proxyScript),
      checked.scriptBytes,
    );
    return {
      command: `/proc/self/fd/${OPENCODE_COMMAND_FD}`,
      argv0: checked.profile.command,
      args: [script, TRUSTED_OPENCODE_EXECUTABLE_ARG, `/proc/self/fd/${OPENCODE_EXECUTABLE_FD}`],
      extraFds: [checked.executableFd, checked.commandFd],
    };
  } catch (error) {
    closeSync(checked.executableFd);
    closeSync(checked.commandFd);
    throw error;
  }
}

/** `verifiedOpencodeLaunch`'s checks alone (`run.prepare`'s): nothing is kept open or copied. */
export function checkOpencodeLaunch(
  profile: OpencodeLaunchProfile | null,
  config: { readonly command: string; readonly args: readonly string[] },
): void {
  const checked = openCheckedArtifacts(profile, config);
  closeSync(checked.executableFd);
  closeSync(checked.commandFd);
}

function openCheckedArtifacts(
  profile: OpencodeLaunchProfile | null,
  config: { readonly command: string; readonly args: readonly string[] },
): {
  readonly profile: OpencodeLaunchProfile;
  readonly commandFd: number;
  readonly scriptBytes: Buffer;
  readonly executableFd: number;
} {
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
  const opened: number[] = [];
  try {
    const command = openChecked(profile.command, profile.commandSha256, "the opencode proxy command", opened);
    const script = openChecked(
      profile.proxyScript,
      profile.proxyScriptSha256,
      "the opencode proxy script",
      opened,
    );
    const executable = openChecked(
      profile.executable,
      profile.executableSha256,
      "the opencode executable",
      opened,
    );
    closeSync(script.fd);
    return { profile, commandFd: command.fd, scriptBytes: script.bytes, executableFd: executable.fd };
  } catch (error) {
    for (const fd of opened) {
      try {
        closeSync(fd);
      } catch {
        // Already closed (the script's, once read).
      }
    }
    throw error;
  }
}

/**
 * Opens `file` and hashes it through the descriptor. `O_NONBLOCK`: a FIFO (or a device)
 * planted at the path must not block the open, and only a regular file is read at all
 * (`fstat` of the descriptor). Links are followed (the command is often a link to `node`,
 * the executable one to the installed `opencode`): the inode checked is the one opened,
 * hashed and run, whatever the path names later.
 */
function openChecked(
  file: string,
  expected: string,
  what: string,
  opened: number[],
): { readonly fd: number; readonly bytes: Buffer } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw configInvalid(`${what} cannot be opened (${errnoCode(error) ?? "unknown error"})`);
  }
  opened.push(fd);
  if (!fstatSync(fd).isFile()) throw configInvalid(`${what} is not a regular file`);
  const bytes = readFileSync(fd);
  const actual = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (actual !== expected) throw configInvalid(`${what} does not match its sha256 digest`);
  return { fd, bytes };
}
