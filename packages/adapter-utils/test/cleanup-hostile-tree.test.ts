import { chown, readdir } from "node:fs/promises";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import {
  bindRepoView,
  builtEntry,
  cleanupAll,
  inPrivateMountNamespace,
  viaRepoView,
} from "./sandbox-support.js";

afterEach(cleanupAll);

/** Descriptors the host process may open: far fewer than the program's directories. */
const NOFILE = 256;

/**
 * What a program leaves in its private /tmp (a directory of its run directory on the
 * host) to keep the run's cleanup from removing it: the run directory would stay, with
 * whatever it holds (on `/dev/shm`, memory), and, its owner record gone, no later sweep
 * would take it either.
 */
const PLANTS = {
  // More full directories side by side than the host may hold descriptors.
  wide: `i=0; while [ $i -lt 600 ]; do mkdir -p /tmp/w/$i && echo x > /tmp/w/$i/f; i=$((i + 1)); done`,
  // Nested deeper than the host may hold descriptors.
  deep: `cd /tmp; i=0; while [ $i -lt 600 ]; do mkdir d && echo x > f && cd d; i=$((i + 1)); done`,
  // Directories whose owner may not list, empty or enter them, one inside another.
  locked: [
    `for entry in none:000 read-only:500 no-search:600 write-only:300; do`,
    `  dir=/tmp/\${entry%%:*}`,
    `  mkdir -p "$dir/inner" && head -c 65536 /dev/zero > "$dir/inner/blob"`,
    `  chmod 000 "$dir/inner" && chmod "\${entry#*:}" "$dir"`,
    `done`,
    `chmod 500 /tmp`,
  ].join("\n"),
} as const;

/**
 * Runs the plant in a network-only deny sandbox from the built package, in a host process
 * of uid 65534 (no `CAP_DAC_OVERRIDE`: modes bind it) allowed `NOFILE` descriptors, with
 * its run directory in `base`, and returns what the run left in `base`.
 */
async function leftAfter(plant: string): Promise<{ left: string[]; outcome: string; stderr: string }> {
  const base = tempDirForTest("pc-hostile-tree-", { base: "/var/tmp" });
  await chown(base, 65534, 65534);
  const script = `
    const { runChildProcess } = await import(${JSON.stringify(viaRepoView(builtEntry))});
    const result = await runChildProcess("hostile-tree", "/bin/sh", ["-c", ${JSON.stringify(`set -e\n${plant}\necho planted`)}], {
      cwd: ${JSON.stringify(base)}, env: {}, timeoutSec: 60, graceSec: 1, onLog: async () => {},
      localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ${JSON.stringify(base)}, networkScope: "deny", proxySocketDirCandidates: [${JSON.stringify(base)}] },
    });
    console.log(JSON.stringify({ exitCode: result.exitCode, stdout: result.stdout.trim(), stderr: result.stderr }));`;
  // The repository may sit in a directory uid 65534 cannot enter (a private clone): the
  // built package is reached through a view of it bound in a mount namespace of its own.
  const result = await inPrivateMountNamespace(
    `${bindRepoView} && exec prlimit --nofile=${NOFILE}:${NOFILE} setpriv --reuid=65534 --regid=65534 --clear-groups ${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`,
    { PATH: process.env.PATH, HOME: base, SCRIPT: script },
  );
  // The base is removed as root at the end of the test, whatever the run left.
  return { left: await readdir(base), outcome: result.stdout.trim(), stderr: result.stderr };
}

describe("cleanup of a run directory a program made hostile", () => {
  it.each(Object.keys(PLANTS) as (keyof typeof PLANTS)[])(
    "removes a private /tmp left %s, as an unprivileged runner short of descriptors",
    async (kind) => {
      const { left, outcome, stderr } = await leftAfter(PLANTS[kind]);
      expect(stderr).toBe("");
      expect(JSON.parse(outcome)).toEqual({ exitCode: 0, stdout: "planted", stderr: "" });
      expect(left).toEqual([]);
    },
    120_000,
  );
});
