import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { caughtSync } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  type OpencodeLaunchProfile,
  verifiedOpencodeLaunch,
} from "../src/provider/opencode-launch-profile.js";
import { ProviderProcess } from "../src/provider/provider-process.js";

// The launch profile's three artifacts, as files in a directory the test (the attacker) controls.

const digest = (file: string): string =>
  `sha256:${createHash("sha256").update(readFileSync(file)).digest("hex")}`;

/** Writes `text` to a new name beside `file` and renames it over `file`: a swap, not an edit in place. */
function swap(file: string, text: string, mode: number): void {
  writeFileSync(`${file}.new`, text, { mode });
  renameSync(`${file}.new`, file);
}

/** A proxy command that prints who it is, then the proxy script and the executable it was handed. */
const command = (name: string): string => `#!/bin/sh\necho "${name}"\ncat "$1"\ncat "$3"\n`;

function artifacts(): {
  readonly bin: string;
  readonly stateDir: string;
  readonly profile: OpencodeLaunchProfile;
} {
  const dir = tempDirForTest("runner opencode-launch-");
  const bin = path.join(dir, "bin");
  const stateDir = path.join(dir, "state");
  mkdirSync(bin);
  mkdirSync(stateDir, { mode: 0o700 });
  const files = {
    command: path.join(bin, "proxy-command"),
    proxyScript: path.join(bin, "proxy.cjs"),
    executable: path.join(bin, "opencode"),
  };
  writeFileSync(files.command, command("command as checked"), { mode: 0o755 });
  writeFileSync(files.proxyScript, "script as checked\n");
  writeFileSync(files.executable, "executable as checked\n", { mode: 0o755 });
  const profile = {
    command: files.command,
    commandSha256: digest(files.command),
    proxyScript: files.proxyScript,
    proxyScriptSha256: digest(files.proxyScript),
    executable: files.executable,
    executableSha256: digest(files.executable),
  };
  return { bin, stateDir, profile };
}

const configOf = (profile: OpencodeLaunchProfile) => ({
  command: profile.command,
  args: [profile.proxyScript],
});

/** Runs a checked launch to its end; its stdout lines. */
async function run(launch: ReturnType<typeof verifiedOpencodeLaunch>, cwd: string): Promise<string[]> {
  const lines: string[] = [];
  const child = new ProviderProcess(
    { ...launch, cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
    { onLine: (line) => lines.push(line), onOversized: () => undefined, onInvalidText: () => undefined },
  );
  const exit = await child.exited;
  await child.outputEnded;
  expect(exit).toEqual({ kind: "exited", exitCode: 0, signal: null });
  return lines;
}

describe("the OpenCode launch profile's artifacts", () => {
  it("runs the bytes it hashed, though the proxy command and script are swapped right after the check", async () => {
    const { bin, stateDir, profile } = artifacts();
    const launch = verifiedOpencodeLaunch(profile, configOf(profile), stateDir);
    swap(profile.command, command("command swapped in"), 0o755);
    swap(profile.proxyScript, "script swapped in\n", 0o644);
    swap(profile.executable, "executable swapped in\n", 0o755);
    expect(await run(launch, bin)).toEqual([
      "command as checked",
      "script as checked",
      "executable as checked",
    ]);
  });

  it.each([
    ["proxy command", "command"],
    ["proxy script", "proxyScript"],
    ["executable", "executable"],
  ] as const)("refuses a FIFO, a directory or a device as the %s, without blocking", (what, key) => {
    const { bin, stateDir, profile } = artifacts();
    const fifo = path.join(bin, "fifo");
    execFileSync("mkfifo", [fifo]);
    const directory = path.join(bin, "directory");
    mkdirSync(directory);
    for (const planted of [fifo, directory, "/dev/null"]) {
      const planting = { ...profile, [key]: planted };
      const error = caughtSync(() => verifiedOpencodeLaunch(planting, configOf(planting), stateDir));
      expect(error.code).toBe("ERR_RUNNER_PROVIDER_CONFIG_INVALID");
      expect(error.message).toBe(
        `invalid provider configuration: the opencode ${what} is not a regular file`,
      );
    }
  });

  it.each([
    ["proxy command", "command"],
    ["proxy script", "proxyScript"],
    ["executable", "executable"],
  ] as const)(
    "refuses a %s whose bytes are not the ones its digest names, opening nothing more",
    (what, key) => {
      const { bin, stateDir, profile } = artifacts();
      swap(profile[key], "changed before the check\n", 0o755);
      const error = caughtSync(() => verifiedOpencodeLaunch(profile, configOf(profile), stateDir));
      expect(error.code).toBe("ERR_RUNNER_PROVIDER_CONFIG_INVALID");
      expect(error.message).toBe(
        `invalid provider configuration: the opencode ${what} does not match its sha256 digest`,
      );
      expect(error.message).not.toContain(bin);
      // No private copy of the script is left behind by a refused launch.
      expect(() => statSync(path.join(stateDir, "opencode-launch", "proxy.cjs"))).toThrow();
    },
  );

  it("runs the script from a private copy in the state directory, refusing a link planted there", () => {
    const { bin, stateDir, profile } = artifacts();
    const launch = verifiedOpencodeLaunch(profile, configOf(profile), stateDir);
    for (const fd of launch.extraFds) closeSync(fd);
    expect(launch.args[0]).toBe(path.join(stateDir, "opencode-launch", "proxy.cjs"));
    expect(statSync(path.join(stateDir, "opencode-launch")).mode & 0o777).toBe(0o700);
    expect(statSync(launch.args[0] as string).mode & 0o777).toBe(0o600);
    const planted = path.join(bin, "..", "planted-state");
    mkdirSync(planted, { mode: 0o700 });
    symlinkSync(bin, path.join(planted, "opencode-launch"));
    const error = caughtSync(() => verifiedOpencodeLaunch(profile, configOf(profile), planted));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_NOT_DIRECTORY");
    expect(readFileSync(profile.proxyScript, "utf8")).toBe("script as checked\n");
  });
});
