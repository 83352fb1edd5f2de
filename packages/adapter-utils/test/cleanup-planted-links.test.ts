import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import { cleanupAll, runShellInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

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

  // Flat: every mask goes in the call (a mask that is not empty through its descriptor).
  // Nested: the in-place removal stops at the full directory and the walk takes the rest.
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
      const runDir = path.dirname(target.args[target.args.indexOf("/tmp") - 1]!);
      const child = spawn(target.command, target.args, {
        cwd: target.cwd,
        env: { ...process.env, ...target.env } as NodeJS.ProcessEnv,
        stdio: "ignore",
      });
      expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(0);
      expect(await readdir(path.join(runDir, "0"))).toEqual(expect.arrayContaining(["to-dir", "to-file"]));
      await target.cleanup?.();

      expect(existsSync(runDir)).toBe(false);
      expect(await readdir(canary)).toEqual(["keep.txt"]);
      await expect(readFile(path.join(canary, "keep.txt"), "utf8")).resolves.toBe("host data\n");
      expect((await stat(canary)).mode).toBe(before.mode);
    },
  );
});
