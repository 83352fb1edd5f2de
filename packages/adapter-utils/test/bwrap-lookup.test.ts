import { spawn } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { cleanupAll, onCleanup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * bwrap runs on the host, unconfined. The run's PATH is the program's, and an operator
 * often puts the workspace on it (`<ws>/node_modules/.bin`): an earlier run plants a
 * `bwrap` there, which the next run's spawn helper must not start. The planted one records that it ran on the host and
 * then execs the real bwrap, so the run looks normal either way.
 */
async function plantedBwrap(): Promise<{ ws: string; marker: string }> {
  const dir = scratchDir("pc-sbx-bwrap-lookup-");
  const ws = path.join(dir, "ws");
  const bin = path.join(ws, "node_modules", ".bin");
  await mkdir(bin, { recursive: true });
  const marker = path.join(dir, "host-bwrap-ran");
  const planted = path.join(bin, "bwrap");
  await writeFile(planted, `#!/bin/sh\necho "$0" >> '${marker}'\nexec /usr/bin/bwrap "$@"\n`);
  await chmod(planted, 0o755);
  return { ws, marker };
}

describe("the bwrap the spawn helper starts (real bwrap)", () => {
  it("is not looked up on the run's PATH: one planted in the workspace, first on it, never runs", async () => {
    const { ws, marker } = await plantedBwrap();
    const result = await runChildProcess("bwrap-lookup", "/bin/sh", ["-c", "echo confined"], {
      cwd: ws,
      env: { PATH: `${ws}/node_modules/.bin:/usr/bin:/bin` },
      timeoutSec: 20,
      graceSec: 1,
      onLog: async () => {},
      localProcessSandbox: { workspaceDir: ws, filesystemScope: "workspace", networkScope: "deny" },
    });
    await expect(readFile(marker, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("confined\n");
  });

  it("is not looked up in the workspace on the host's own PATH: npm run or npx there puts its bin first", async () => {
    const { ws, marker } = await plantedBwrap();
    const saved = process.env.PATH;
    let result: Awaited<ReturnType<typeof runChildProcess>>;
    try {
      process.env.PATH = `${ws}/node_modules/.bin:${saved ?? ""}`;
      result = await runChildProcess("bwrap-lookup", "/bin/sh", ["-c", "echo confined"], {
        cwd: ws,
        env: {},
        timeoutSec: 20,
        graceSec: 1,
        onLog: async () => {},
        localProcessSandbox: { workspaceDir: ws, filesystemScope: "workspace", networkScope: "deny" },
      });
    } finally {
      process.env.PATH = saved;
    }
    await expect(readFile(marker, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("confined\n");
  });

  it("a builder given the spawn env returns the host's bwrap, not the one its PATH names first", async () => {
    const { ws, marker } = await plantedBwrap();
    const env = { PATH: `${ws}/node_modules/.bin:/usr/bin:/bin` };
    const target = await buildLocalProcessSandboxSpawnTarget({
      executable: "/bin/sh",
      args: ["-c", "echo confined"],
      cwd: ws,
      options: { workspaceDir: ws, filesystemScope: "workspace", networkScope: "deny" },
      env,
    });
    onCleanup(async () => target.cleanup?.());
    // Spawned as a caller does: Node looks a bare command up on the PATH of the env it is given.
    const child = spawn(target.command, target.args, { cwd: target.cwd, env: { ...env, ...target.env } });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    await expect(readFile(marker, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    expect(code).toBe(0);
    expect(stdout).toBe("confined\n");
    expect(path.isAbsolute(target.command)).toBe(true);
  });

  it.each([
    ["lacks bwrap", () => "/nonexistent"],
    ["names it only by a relative entry", () => path.relative(process.cwd(), "/usr/bin")],
  ])(
    "a builder given the spawn env refuses when the host's PATH %s, never handing the bare name to that env's PATH",
    async (_, hostPath) => {
      const { ws, marker } = await plantedBwrap();
      const env = { PATH: `${ws}/node_modules/.bin:/usr/bin:/bin` };
      const saved = process.env.PATH;
      let outcome: unknown;
      try {
        process.env.PATH = hostPath();
        outcome = await buildLocalProcessSandboxSpawnTarget({
          executable: "/bin/sh",
          args: ["-c", "echo confined"],
          cwd: ws,
          options: { workspaceDir: ws, filesystemScope: "workspace", networkScope: "deny" },
          env,
        }).then(
          async (target) => {
            // The old code returned the bare name: spawned with `env`, the planted one runs.
            const child = spawn(target.command, target.args, {
              cwd: target.cwd,
              env: { ...env, ...target.env },
            });
            await new Promise((resolve) => child.once("close", resolve));
            await target.cleanup?.();
            return target.command;
          },
          (error: unknown) => error,
        );
      } finally {
        process.env.PATH = saved;
      }
      expect(outcome).toMatchObject({
        code: "ERR_SANDBOX_BWRAP_NOT_FOUND",
        message: expect.stringContaining('"bwrap" was not found on the host\'s PATH'),
      });
      await expect(readFile(marker, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    },
  );
});
