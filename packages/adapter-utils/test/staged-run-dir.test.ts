import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions, LocalProcessSandboxSpawnTarget } from "../src/sandbox-options.js";
import { stagedRunDirPath } from "../src/temp-dir/staged-run-dir.js";
import { builtEntry, cleanupAll, exec, onCleanup, runShellInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The network-only deny scope's run directory is staged after each build, ahead of the
 * next one, which only claims it. A claimed directory must be as private as a fresh one,
 * a tampered one must not be used, and none may outlive its process.
 */

const deny = (workspaceDir: string): LocalProcessSandboxOptions => ({
  workspaceDir,
  networkScope: "deny",
  command: "/usr/bin/bwrap",
});

/** The host directory bound over `dest` in a target's argv. */
function boundAt(target: LocalProcessSandboxSpawnTarget, dest: string): string {
  const index = target.args.findIndex((arg, i) => arg === dest && target.args[i - 2] === "--bind");
  expect(index).toBeGreaterThan(0);
  return target.args[index - 1]!;
}

async function build(ws: string): Promise<LocalProcessSandboxSpawnTarget> {
  const target = await buildLocalProcessSandboxSpawnTarget({
    executable: "/bin/true",
    args: [],
    cwd: ws,
    options: deny(ws),
  });
  onCleanup(async () => target.cleanup?.());
  return target;
}

/** What staging does while a caller waits for its sandbox: one turn of the event loop. */
const backgroundTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("staged deny run directory", () => {
  it("is what the next build uses, and its sandbox's /tmp and /run are empty", async () => {
    const ws = scratchDir();
    const first = await build(ws);
    await backgroundTurn();
    const staged = stagedRunDirPath();
    expect(staged).not.toBeNull();
    expect(path.dirname(boundAt(first, "/tmp"))).not.toBe(staged);
    const second = await build(ws);
    expect(path.dirname(boundAt(second, "/tmp"))).toBe(staged);
    await first.cleanup?.();
    await second.cleanup?.();
    expect(existsSync(staged!)).toBe(false);
    // Through the spawn helper too: a run on a claimed directory sees nothing in its private dirs.
    await runShellInSandbox("true", deny(ws));
    await backgroundTurn();
    const result = await runShellInSandbox("ls -A /tmp; echo --; ls -A /run /proc/1", deny(ws));
    expect(result.exitCode).toBe(0);
    // /tmp holds only the mount point of the workspace bound back (it lies under /tmp).
    const [tmp, rest] = result.stdout.split("--\n");
    expect(tmp!.trim()).toBe(path.basename(ws));
    expect(rest!.replace(/^\/\S+:\n?/gm, "").trim()).toBe("");
  });

  it("is not used once something was planted in it", async () => {
    const ws = scratchDir();
    await build(ws);
    await backgroundTurn();
    const staged = stagedRunDirPath()!;
    writeFileSync(path.join(staged, "0", "planted"), "from another process");
    const next = await build(ws);
    expect(path.dirname(boundAt(next, "/tmp"))).not.toBe(staged);
    expect(existsSync(staged)).toBe(false);
    const result = await runShellInSandbox("ls -A /tmp", deny(ws));
    expect(result.stdout).not.toContain("planted");
  });

  it("is removed when its process exits", async () => {
    const ws = scratchDir();
    const script = `
      const { buildLocalProcessSandboxSpawnTarget: build } = await import(${JSON.stringify(builtEntry)});
      const options = { workspaceDir: ${JSON.stringify(ws)}, networkScope: "deny" };
      const target = await build({ executable: "/bin/true", args: [], cwd: options.workspaceDir, options });
      await target.cleanup();
      await new Promise((resolve) => setImmediate(resolve));
      const runDir = target.args[target.args.indexOf("/tmp") - 1].replace(/\\/0$/, "");
      const { readdirSync } = await import("node:fs");
      const path = await import("node:path");
      const root = path.dirname(runDir);
      const { readFileSync } = await import("node:fs");
      const mine = readdirSync(root).filter((name) => {
        try { return JSON.parse(readFileSync(path.join(root, name, "owner.json"), "utf8")).pid === process.pid; }
        catch { return false; }
      });
      process.stdout.write(JSON.stringify(mine.map((name) => path.join(root, name))));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const staged = JSON.parse(out) as string[];
    // The run's own directory went with its cleanup; the one staged for a next run was left.
    expect(staged).toHaveLength(1);
    expect(existsSync(staged[0]!)).toBe(false);
    expect((await exec("ls", ["-A", path.dirname(staged[0]!)])).stdout).not.toContain(
      path.basename(staged[0]!),
    );
  });
});
