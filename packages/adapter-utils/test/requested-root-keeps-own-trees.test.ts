import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { cleanupAll, onCleanup, runShellInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * A host process the sandbox must not see: its command line (readable by every uid) and
 * environment hold the canary, as a host process's hold its secrets.
 */
async function hostProcessHolding(canary: string): Promise<void> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e9)", canary], {
    env: { PATH: process.env.PATH, PC_HOST_CANARY: canary },
    stdio: "ignore",
  });
  onCleanup(async () => {
    child.kill("SIGKILL");
    if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
  });
  await once(child, "spawn");
}

/**
 * Searches every `/proc/<pid>` it sees for the canary (written from two halves, so no command
 * line holds it), then uses the sandbox's `/dev` and looks at `/sys`.
 */
function probe(half: string): string {
  return [
    // The pattern from a file: no grep's own command line holds it either.
    `printf 'pc-host-canary-%s' ${half} > pattern; hits=0`,
    'for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do grep -qF -f pattern "$f" 2>/dev/null && hits=$((hits+1)); done',
    'echo "host processes: $hits"',
    "echo x > /dev/null && echo /dev/null works",
    'echo "/sys entries: $(ls -A /sys 2>/dev/null | wc -l)"',
  ].join("; ");
}

/**
 * A requested `/` (read-only, as a caller that lets the program read the host might ask)
 * was bound over the fresh root's own `/proc`, `/dev` and empty `/sys`: the program saw every
 * host process, their environments (the caller's secrets) and, through `/proc/<pid>/root` and
 * `fd`, the host's files with their own mount flags, writable; a requested `/proc` did the
 * same. The scope now keeps its own trees.
 */
describe("a workspace-scope run given / or /proc as an extra path", () => {
  const scopes: Record<string, Omit<LocalProcessSandboxOptions, "workspaceDir">> = {
    workspace: { filesystemScope: "workspace" },
    workspaceAllowlist: {
      filesystemScope: "workspace",
      networkScope: "allowlist",
      networkAllowlist: ["127.0.0.1:9"],
    },
  };
  for (const [name, scope] of Object.entries(scopes)) {
    it.each(["/", "/proc"])(
      `keeps its own /proc, /dev and /sys with %s read-only (${name})`,
      async (asked) => {
        const half = randomBytes(8).toString("hex");
        await hostProcessHolding(`pc-host-canary-${half}`);
        const ws = scratchDir("pc-own-trees-");
        const result = await runShellInSandbox(probe(half), {
          workspaceDir: ws,
          ...scope,
          extraPaths: [{ path: asked, access: "ro" }],
        });
        expect({ exitCode: result.exitCode, stdout: result.stdout }, result.stderr).toEqual({
          exitCode: 0,
          stdout: "host processes: 0\n/dev/null works\n/sys entries: 0\n",
        });
      },
      60_000,
    );
  }
});

/**
 * The sandbox's own trees were put back after every request, so the fresh `/dev` landed on
 * a requested path deeper in it: a workspace in `/dev/shm` was covered (bwrap could not
 * chdir there), a requested `/dev/shm` silently replaced. They now follow the `/` itself.
 */
describe("a workspace-scope run given / and a path in /dev", () => {
  it("runs in a workspace in /dev/shm and writes the host's", async () => {
    const ws = tempDirForTest("pc-own-trees-shm-", { base: "/dev/shm" });
    const result = await runShellInSandbox("echo from-sandbox > out && ls /dev/null", {
      workspaceDir: ws,
      filesystemScope: "workspace",
      extraPaths: [{ path: "/", access: "ro" }],
    });
    expect({ exitCode: result.exitCode, stdout: result.stdout }, result.stderr).toEqual({
      exitCode: 0,
      stdout: "/dev/null\n",
    });
    expect(await readFile(path.join(ws, "out"), "utf8")).toBe("from-sandbox\n");
  }, 60_000);

  it("shows a requested /dev/shm, the host's, over its own", async () => {
    const shared = tempDirForTest("pc-own-trees-shared-", { base: "/dev/shm" });
    await writeFile(path.join(shared, "marker"), "host\n");
    const result = await runShellInSandbox(`cat ${shared}/marker`, {
      workspaceDir: scratchDir("pc-own-trees-"),
      filesystemScope: "workspace",
      extraPaths: [
        { path: "/", access: "ro" },
        { path: "/dev/shm", access: "ro" },
      ],
    });
    expect({ exitCode: result.exitCode, stdout: result.stdout }, result.stderr).toEqual({
      exitCode: 0,
      stdout: "host\n",
    });
  }, 60_000);
});
