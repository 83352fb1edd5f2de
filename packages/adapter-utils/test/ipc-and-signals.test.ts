import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import {
  cleanupAll,
  exec,
  onCleanup,
  processesNaming,
  runShellInSandbox,
  scratchDir,
} from "./sandbox-support.js";

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

/** The keys of every System V object `ipcs` lists for the caller's IPC namespace. */
const LIST_KEYS = "ipcs -m -q -s | grep -o '^0x[0-9a-f]*'";

describe("System V objects a program leaves behind", () => {
  it("are gone with its run: none of their keys is on the host afterwards, in any scope", async () => {
    for (const [name, scope] of Object.entries(SCOPES)) {
      const ws = await scratchDir();
      // Made and left: no ipcrm. A memory segment, a queue and a semaphore set, each with a fresh key.
      const result = await runShellInSandbox(`ipcmk -M 4096 -Q -S 1 >/dev/null && ${LIST_KEYS}`, {
        workspaceDir: ws,
        ...scope,
      });
      const keys = result.stdout.split("\n").filter(Boolean);
      // Should one reach the host after all, it goes when the test ends, whichever kind it is.
      for (const key of keys) {
        onCleanup(() =>
          exec("sh", ["-c", `for kind in M Q S; do ipcrm -$kind ${key}; done 2>/dev/null; true`]),
        );
      }
      expect(keys, `${name}: ${result.stderr}`).toHaveLength(3);
      const host = (await exec("sh", ["-c", LIST_KEYS])).stdout.split("\n");
      expect(
        keys.filter((key) => host.includes(key)),
        name,
      ).toEqual([]);
    }
  }, 90_000);
});

describe("signals to what the sandbox is built on", () => {
  it("a program that stops or kills its bridge, or pid 1, still has its run end whole, and nothing of it stays", async () => {
    const cases: [string, string, Omit<LocalProcessSandboxOptions, "workspaceDir">, boolean][] = [
      [
        "stop native bridge",
        "kill -STOP $PPID",
        { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
        true,
      ],
      [
        "stop Node bridge",
        "kill -STOP $PPID",
        { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"], networkBridge: "node" },
        true,
      ],
      [
        "kill native bridge",
        "kill -KILL $PPID",
        { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
        false,
      ],
      // pid 1 of a pid namespace gets no signal it has no handler for from inside it.
      [
        "stop and kill pid 1",
        "kill -STOP 1; kill -KILL 1",
        { filesystemScope: "workspace", networkScope: "deny" },
        true,
      ],
    ];
    for (const [name, signal, scope, timesOut] of cases) {
      const marker = String(600_000 + Math.floor(Math.random() * 100_000));
      const ws = await scratchDir();
      // The sleep outlives the run unless the run's end takes every process of it.
      const result = await runShellInSandbox(
        `${signal}; sleep ${marker} & wait`,
        { workspaceDir: ws, ...scope },
        // A run that ends on its own gets room on a loaded machine; one that cannot, 2 s.
        { timeoutSec: timesOut ? 2 : 30 },
      );
      expect(result.timedOut, `${name}: ${result.stderr}`).toBe(timesOut);
      expect(processesNaming(`sleep\0${marker}`), name).toEqual([]);
    }
  }, 90_000);
});
