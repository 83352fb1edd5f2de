import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { buildPlantedLoader } from "@paperclipai/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { usableNativeBinary } from "../src/bridge/bridge-launch.js";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions, LocalProcessSandboxSpawnTarget } from "../src/sandbox-options.js";
import { findPidsHierarchy } from "../src/spawn/run-cgroup.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { refillSpareLauncher } from "../src/spawn/spare-launcher.js";
import { cleanupAll, onCleanup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * bwrap runs on the host, dynamically linked, before any namespace exists. A loader
 * variable the operator gives the program (`LD_LIBRARY_PATH=<workspace>/lib`, a preload or
 * audit module in the workspace) must not reach bwrap's own process: an earlier run plants
 * the library there, and the next run's bwrap would load it unconfined. Each planted object
 * appends the comm of the process that loaded it to a host file: `bwrap` must never appear,
 * and the program must still see the variable's value.
 */

const SCOPES: Record<string, Omit<LocalProcessSandboxOptions, "workspaceDir">> = {
  workspace: { filesystemScope: "workspace" },
  "network-only deny": { networkScope: "deny" },
  "workspace + allowlist": {
    filesystemScope: "workspace",
    networkScope: "allowlist",
    networkAllowlist: ["example.com"],
  },
};

interface Planted {
  ws: string;
  marker: string;
  /** Each attack: the variable and the value that names what the earlier run planted. */
  variables: Record<"LD_PRELOAD" | "LD_AUDIT" | "LD_LIBRARY_PATH", string>;
}

/** A workspace where an earlier run left a preload/audit module and a fake `libcap.so.2`; the marker is outside it. */
async function plantedWorkspace(): Promise<Planted> {
  const dir = scratchDir("pc-sbx-loader-");
  const ws = path.join(dir, "ws");
  const lib = path.join(ws, "lib");
  await mkdir(lib, { recursive: true });
  const marker = path.join(dir, "loaded-by");
  buildPlantedLoader(path.join(ws, "planted.so"), marker);
  buildPlantedLoader(path.join(lib, "libcap.so.2"), marker, { fakeLibcap: true });
  const planted = path.join(ws, "planted.so");
  return { ws, marker, variables: { LD_PRELOAD: planted, LD_AUDIT: planted, LD_LIBRARY_PATH: lib } };
}

/** The comms of the processes that loaded a planted object (none: the marker was never written). */
async function loadedBy(marker: string): Promise<string[]> {
  const text = await readFile(marker, "utf8").catch(() => "");
  return text.split("\n").filter(Boolean);
}

/** Prints the variable as the program sees it. */
const printVariable = (name: string) => ["-c", `printf '%s' "$${name}"`];

describe.each(Object.entries(SCOPES))(
  "loader variables for the program (%s scope, real bwrap)",
  (_, scope) => {
    it.each(["LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH"] as const)(
      "runChildProcess: a planted library named by %s is not loaded into bwrap; the program sees the value",
      async (name) => {
        const { ws, marker, variables } = await plantedWorkspace();
        const result = await runChildProcess("loader-env", "/bin/sh", printVariable(name), {
          cwd: ws,
          env: { [name]: variables[name] },
          timeoutSec: 20,
          graceSec: 1,
          onLog: async () => {},
          localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ws, ...scope },
        });
        expect(await loadedBy(marker)).not.toContain("bwrap");
        expect(result.exitCode, result.stderr).toBe(0);
        expect(result.stdout).toBe(variables[name]);
      },
    );
  },
);

/** Spawns a built target with `env` and the target's overlay, as the README says (`undefined` deletes). */
function spawnWith(
  target: LocalProcessSandboxSpawnTarget,
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(target.command, target.args, {
    cwd: target.cwd,
    env: { ...env, ...target.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

async function buildTarget(ws: string, name: string, env?: Record<string, string | undefined>) {
  const target = await buildLocalProcessSandboxSpawnTarget({
    executable: "/bin/sh",
    args: printVariable(name),
    cwd: ws,
    options: {
      command: "/usr/bin/bwrap",
      workspaceDir: ws,
      filesystemScope: "workspace",
      networkScope: "deny",
    },
    ...(env ? { env } : {}),
  });
  onCleanup(async () => target.cleanup?.());
  return target;
}

describe("loader variables for the program (buildLocalProcessSandboxSpawnTarget, real bwrap)", () => {
  it.each(["LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH"] as const)(
    "given the spawn env, the target carries %s to the program in argv and deletes it for bwrap",
    async (name) => {
      const { ws, marker, variables } = await plantedWorkspace();
      const env = { ...process.env, [name]: variables[name] };
      const target = await buildTarget(ws, name, env);
      expect(target.env).toHaveProperty(name, undefined);
      const run = await spawnWith(target, env);
      expect(await loadedBy(marker)).not.toContain("bwrap");
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(variables[name]);
    },
  );

  it("without the spawn env, the target deletes glibc's loader variables for bwrap (the program does not get them)", async () => {
    const { ws, marker, variables } = await plantedWorkspace();
    const target = await buildTarget(ws, "LD_PRELOAD");
    for (const name of ["LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "GLIBC_TUNABLES"]) {
      expect(target.env).toHaveProperty(name, undefined);
    }
    const run = await spawnWith(target, { ...process.env, ...variables });
    expect(await loadedBy(marker)).not.toContain("bwrap");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
  });
});

/** This process's run cgroups that hold a process now: a waiting spare's (a taken one's run is awaited). */
function waitingSpareCgroups(parent: string): string[] {
  const own = new RegExp(`^paperclip-sandbox-${process.pid}-[0-9a-f]+-\\d+$`);
  return readdirSync(parent)
    .filter((name) => own.test(name))
    .map((name) => path.join(parent, name))
    .filter((dir) => {
      try {
        return readFileSync(path.join(dir, "cgroup.procs"), "utf8").trim() !== "";
      } catch {
        return false;
      }
    });
}

describe("a NUL byte in the program's arguments (real bwrap, the spare launcher)", () => {
  // The spare reads its run as NUL-terminated fields: a NUL inside the last argument (a
  // prompt built from text an earlier run left) split it, and its tail became an env entry
  // of bwrap itself. Node's spawn refuses NUL bytes on the direct path; the spare must too.
  it("is refused as on a direct spawn, and never becomes an env entry of bwrap", async () => {
    const { ws, marker, variables } = await plantedWorkspace();
    const launcher = await usableNativeBinary();
    expect(launcher, "the native cgroup launcher runs here").toBeTruthy();
    const hierarchy = findPidsHierarchy();
    expect(hierarchy, "a writable pids cgroup hierarchy (root in CI): spares exist").toBeTruthy();
    const refusals: unknown[] = [];
    for (let run = 0; run < 2; run++) {
      // A spare is waiting for each run (the spawn helper also refills one after each).
      refillSpareLauncher(launcher!);
      // The spare joins its cgroup on its own, just after it starts.
      const waiting = await vi.waitFor(
        () => {
          const found = waitingSpareCgroups(hierarchy!.parent);
          expect(found, "a spare waits for this run").not.toEqual([]);
          return found;
        },
        { timeout: 15_000, interval: 20 },
      );
      const attempt = runChildProcess(
        "loader-env-nul",
        "/bin/sh",
        ["-c", "printf '%s' \"$LD_PRELOAD\"", `x\0LD_PRELOAD=${variables.LD_PRELOAD}`],
        {
          cwd: ws,
          env: {},
          timeoutSec: 20,
          graceSec: 1,
          onLog: async () => {},
          localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ws, filesystemScope: "workspace" },
        },
      );
      refusals.push(
        await attempt.then(
          () => null,
          (error: unknown) => error,
        ),
      );
      // The run took that spare: its refusal killed it and removed its cgroup (an untaken
      // spare would still wait there, and the refusal would be Node's, on the direct path).
      for (const dir of waiting) expect(existsSync(dir), `${dir}: the spare was taken`).toBe(false);
    }
    expect(await loadedBy(marker)).not.toContain("bwrap");
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({
        code: "ERR_SANDBOX_SPAWN_FAILED",
        message: expect.stringContaining("must be a string without null bytes"),
      });
    }
  });
});
