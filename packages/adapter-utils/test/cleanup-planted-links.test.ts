import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import { privateSocketRoots } from "../src/temp-dir/private-socket-roots.js";
import { removeProxyTempDir } from "../src/temp-dir/remove-proxy-temp-dir.js";
import { cleanupAll, onCleanup, runShellInSandbox, scratchDir } from "./sandbox-support.js";

// The no-follow walk, called through: which directories went to it tells which cleanup ran.
vi.mock("../src/temp-dir/remove-proxy-temp-dir.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../src/temp-dir/remove-proxy-temp-dir.js")>();
  return { ...original, removeProxyTempDir: vi.fn(original.removeProxyTempDir) };
});

afterEach(async () => {
  await cleanupAll();
  vi.mocked(removeProxyTempDir).mockClear();
});

/**
 * A network-only run's private /tmp is a directory of its run directory on the host, and the
 * run's cleanup removes it. The program fills it with links to a host directory it cannot
 * see (the host's /tmp is hidden from it, a link only names it): at the top, nested, and in
 * directories too full to go in one call, so both the synchronous removal and the walk meet
 * them. Cleanup must unlink the links and leave their targets as they were.
 */
describe("cleanup of a run's private /tmp", () => {
  it("removes the links a program planted there, never what they name", async () => {
    const canary = await scratchDir("pc-cleanup-canary-");
    await writeFile(path.join(canary, "keep.txt"), "host data\n");
    const before = await stat(canary);
    // A known base for the run directory (outside /tmp, which the sandbox masks), so its removal shows.
    const base = tempDirForTest("pc-cleanup-base-", { base: "/var/tmp" });
    const plant = [
      `ln -s '${canary}' /tmp/to-dir`,
      `ln -s '${canary}/keep.txt' /tmp/to-file`,
      "mkdir -p /tmp/nest/a/b /tmp/full",
      `ln -s '${canary}' /tmp/nest/a/b/to-dir`,
      `for i in $(seq 1 20); do echo x > /tmp/full/f$i; ln -s '${canary}' /tmp/full/l$i; echo x > /tmp/top$i; done`,
      "ls /tmp | wc -l",
    ].join(" && ");
    const result = await runShellInSandbox(plant, {
      workspaceDir: await scratchDir(),
      networkScope: "deny",
      proxySocketDirCandidates: [base],
    });
    expect(result.stderr).toBe("");
    expect(Number(result.stdout.trim())).toBeGreaterThan(16);

    expect(await readdir(base)).toEqual([]);
    expect(await readdir(canary)).toEqual(["keep.txt"]);
    await expect(readFile(path.join(canary, "keep.txt"), "utf8")).resolves.toBe("host data\n");
    expect((await stat(canary)).mode).toBe(before.mode);
  });

  // Flat: every known entry goes by path, in the call (a mask that is not empty through its
  // descriptor), and the walk is never called for the run directory: the fast path.
  // Nested: the in-place removal stops at the directory it cannot empty in one call, and
  // the whole run directory goes to the walk: the fallback.
  it.each([
    ["flat", false],
    ["nested", true],
  ])(
    "in the default private root, where its known entries go by path (%s), removes the links, never what they name",
    async (_, nested) => {
      const canary = await scratchDir("pc-cleanup-canary-");
      await writeFile(path.join(canary, "keep.txt"), "host data\n");
      const before = await stat(canary);
      const workspaceDir = await scratchDir();
      const plant = [
        `ln -s '${canary}' /tmp/to-dir`,
        `ln -s '${canary}/keep.txt' /tmp/to-file`,
        `ln -s '${canary}' /run/to-dir`,
        ...(nested ? ["mkdir -p /tmp/nest/a", `ln -s '${canary}' /tmp/nest/a/to-dir`] : []),
      ].join(" && ");
      const target = await buildLocalProcessSandboxSpawnTarget({
        executable: "/bin/sh",
        args: ["-c", plant],
        cwd: workspaceDir,
        options: { workspaceDir, networkScope: "deny", command: "/usr/bin/bwrap" },
      });
      let cleaned = false;
      const cleanup = async (): Promise<void> => {
        if (cleaned) return;
        cleaned = true;
        await target.cleanup?.();
      };
      // Registered before anything can fail: a failed assertion leaves no run directory.
      onCleanup(cleanup);
      const runDir = path.dirname(target.args[target.args.indexOf("/tmp") - 1]!);
      expect(privateSocketRoots(process.getuid?.() ?? 0)).toContain(path.dirname(runDir));
      const child = spawn(target.command, target.args, {
        cwd: target.cwd,
        env: { ...process.env, ...target.env } as NodeJS.ProcessEnv,
        stdio: "ignore",
      });
      onCleanup(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      });
      expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(0);
      expect(await readdir(path.join(runDir, "0"))).toEqual(expect.arrayContaining(["to-dir", "to-file"]));
      await cleanup();

      expect(existsSync(runDir)).toBe(false);
      const walked = vi.mocked(removeProxyTempDir).mock.calls.map(([dir]) => dir);
      if (nested) expect(walked).toContain(runDir);
      else expect(walked).not.toContain(runDir);
      expect(await readdir(canary)).toEqual(["keep.txt"]);
      await expect(readFile(path.join(canary, "keep.txt"), "utf8")).resolves.toBe("host data\n");
      expect((await stat(canary)).mode).toBe(before.mode);
    },
  );
});
