import { execFile } from "node:child_process";

const versions = new Map<string, Promise<string | null>>();

/** `bwrap --version` output, asked once per executable path; `null` when it cannot run. */
export function bwrapVersion(command: string): Promise<string | null> {
  let version = versions.get(command);
  if (!version) {
    version = new Promise((resolve) => {
      execFile(command, ["--version"], { timeout: 10_000 }, (error, stdout) => {
        resolve(error ? null : stdout.trim());
      });
    });
    versions.set(command, version);
  }
  return version;
}
