import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { cleanupAll, exec, onCleanup, runShellInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/** Makes a System V object on the host (`ipcmk -M` or `-Q`); removed by `cleanupAll`. Returns its id. */
async function hostIpcObject(kind: "-M" | "-Q"): Promise<string> {
  const made = await exec("ipcmk", kind === "-M" ? ["-M", "4096"] : ["-Q"]);
  const id = /(\d+)\s*$/.exec(made.stdout)?.[1];
  if (made.code !== 0 || id === undefined) throw new Error(`ipcmk ${kind} failed: ${made.stderr}`);
  onCleanup(() => exec("ipcrm", [kind === "-M" ? "-m" : "-q", id]));
  return id;
}

const SCOPES: Record<string, Omit<LocalProcessSandboxOptions, "workspaceDir">> = {
  workspaceOnly: { filesystemScope: "workspace" },
  networkOnlyDeny: { networkScope: "deny" },
  allowlist: { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
};

describe("kernel objects shared across the host: System V IPC and signals", () => {
  it("a program sees no host IPC object, removes none, and its kill(-1) ends no host process", async () => {
    const memory = await hostIpcObject("-M");
    const queue = await hostIpcObject("-Q");
    // A host process of the runner's uid, as a neighbour of the run would be.
    const neighbour = spawn("sleep", ["600"], { stdio: "ignore" });
    onCleanup(async () => void neighbour.kill("SIGKILL"));
    const attack = [
      // ipcs lists the objects of the caller's IPC namespace; ipcrm takes any id it can name.
      `ipcs -m -q | grep -qw -e ${memory} -e ${queue} && echo listed || echo unlisted`,
      `ipcrm -m ${memory} 2>/dev/null && echo removed || echo kept`,
      `ipcrm -q ${queue} 2>/dev/null && echo removed || echo kept`,
      // Every process the caller may signal: on the host, every process of its uid.
      "kill -9 -1",
    ].join("; ");
    for (const [name, scope] of Object.entries(SCOPES)) {
      const ws = await scratchDir();
      const result = await runShellInSandbox(attack, { workspaceDir: ws, ...scope });
      // Lines before the kill; it may end the run's own bridge, never anything of the host.
      expect(result.stdout, `${name}: ${result.stderr}`).toBe("unlisted\nkept\nkept\n");
    }
    // Still the first signal it gets: one the sandbox had delivered would have ended it already.
    const ended = new Promise((resolve) => neighbour.once("exit", (_code, signal) => resolve(signal)));
    neighbour.kill("SIGTERM");
    expect(await ended).toBe("SIGTERM");
    expect((await exec("ipcs", ["-m", "-i", memory])).code).toBe(0);
    expect((await exec("ipcs", ["-q", "-i", queue])).code).toBe(0);
  }, 90_000);
});
