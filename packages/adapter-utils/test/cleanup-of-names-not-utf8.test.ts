import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { privateSocketRoots } from "../src/temp-dir/private-socket-roots.js";
import { cleanupAll, exec, runShellInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * A Linux file name is bytes, not text. A network-only run's private /tmp is a directory of
 * its run directory on the host (in `/dev/shm`, memory, by default), which the run's cleanup
 * lists and removes. Listed as UTF-8 strings, a name with a byte such as 0xff came back with
 * U+FFFD in its place, every removal of that spelling met ENOENT, and the run still ended
 * with exit 0: what the program wrote there stayed on the host for good, each run adding more.
 */
function plant(marker: string): string {
  return [
    "set -e",
    `odd=$(printf '${marker}\\377')`,
    // A megabyte of the host's memory, a directory holding more, and a full directory of them.
    `head -c 1048576 /dev/zero > "/tmp/$odd"`,
    `mkdir -p "/tmp/d$odd/e$odd" && echo x > "/tmp/d$odd/e$odd/f$odd"`,
    `i=0; while [ $i -lt 20 ]; do echo x > "/tmp/d$odd/$i$odd"; i=$((i + 1)); done`,
    "echo planted",
  ].join("\n");
}

/** Entries named after `marker` in the run directories below `dirs` (a run directory's `/tmp` is two levels down). */
async function leftovers(dirs: readonly string[], marker: string): Promise<string> {
  const found = await exec("find", [...dirs, "-maxdepth", "4", "-name", `*${marker}*`]);
  return found.stdout.trim();
}

const SCOPES: Record<string, Omit<LocalProcessSandboxOptions, "workspaceDir">> = {
  "network-only deny": { networkScope: "deny" },
  "network-only allowlist": { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"] },
};

describe("cleanup of a private /tmp holding names that are not UTF-8", () => {
  it.each(Object.keys(SCOPES))("removes them in the %s scope, in a caller's base", async (scope) => {
    const ws = scratchDir("pc-odd-names-ws-");
    // A known base for the run directory (outside /tmp, which the sandbox masks), so its removal shows.
    const base = tempDirForTest("pc-odd-names-base-", { base: "/var/tmp" });
    const marker = `odd-${randomBytes(6).toString("hex")}-`;
    const sandbox = { workspaceDir: ws, ...SCOPES[scope], proxySocketDirCandidates: [base] };
    const result = await runShellInSandbox(plant(marker), sandbox);
    expect({ exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr }).toEqual({
      exitCode: 0,
      stdout: "planted\n",
      stderr: "",
    });
    expect(await leftovers([base], marker)).toBe("");
    expect(await readdir(base)).toEqual([]);
  });

  it("removes them from the default run directory, in a private socket root", async () => {
    const ws = scratchDir("pc-odd-names-ws-");
    const marker = `odd-${randomBytes(6).toString("hex")}-`;
    const result = await runShellInSandbox(plant(marker), { workspaceDir: ws, networkScope: "deny" });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("planted\n");
    // Other runs of this uid may share the roots: only this run's marker counts.
    const roots = privateSocketRoots(process.getuid?.() ?? 0).filter((root) => existsSync(root));
    expect(roots).not.toEqual([]);
    expect(await leftovers(roots, marker)).toBe("");
  });
});
