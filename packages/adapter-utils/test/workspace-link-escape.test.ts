import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { cleanupAll, onCleanup, runNodeInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The network-only scope hides /run (Docker, D-Bus, agents) and binds a requested path back
 * at its real path. A program of an earlier run can plant links in the workspace; the caller
 * names the spelling. Each case runs a program that connects to a host agent's socket in a
 * directory under /run through the planted link; the agent must see no one.
 */

/** A host agent listening in a fresh directory under `base`, counting connections; closed by `cleanupAll`. */
async function hostAgent(base = "/run"): Promise<{ dir: string; hits: string[] }> {
  const dir = tempDirForTest("pc-host-agent-", { base });
  const hits: string[] = [];
  const agent = createServer((socket) => {
    hits.push("connected");
    socket.end("host agent\n");
  });
  await new Promise<void>((resolve) => agent.listen(path.join(dir, "agent.sock"), resolve));
  onCleanup(() => new Promise<void>((resolve) => agent.close(() => resolve())));
  return { dir, hits };
}

/** The refusal's code, or what the program printed. */
async function outcome(run: () => Promise<{ stdout: string; stderr: string }>): Promise<string> {
  try {
    const result = await run();
    return `${result.stdout}${result.stderr}`.trim();
  } catch (error) {
    if (PaperclipError.is(error)) return error.code;
    throw error;
  }
}

const connectTo = (
  socketPath: string,
) => `const s = require("node:net").connect(${JSON.stringify(socketPath)});
s.on("data", (d) => process.stdout.write(d)); s.on("error", (e) => console.log(e.code));`;

const REFUSED = "ERR_SANDBOX_PATH_LINKS_OUT_OF_WORKSPACE";

/** The outcome of connecting to `<planted>/agent.sock` with `planted` named as an extra path, then as the cwd. */
async function namedAsExtraPathAndCwd(planted: string, sandbox: LocalProcessSandboxOptions) {
  const connect = connectTo(path.join(planted, "agent.sock"));
  return {
    extraPath: await outcome(() =>
      runNodeInSandbox(connect, { ...sandbox, extraPaths: [{ path: planted, access: "ro" }] }),
    ),
    cwd: await outcome(() => runNodeInSandbox(connect, sandbox, { cwd: planted })),
  };
}

describe("paths in the workspace that link out of it", () => {
  it("refuses a path in the workspace that links to a host socket the network-only scope hides", async () => {
    const { dir, hits } = await hostAgent();
    const workspaceDir = path.join(await scratchDir("pc-links-"), "my ws");
    await mkdir(workspaceDir);
    const planted = path.join(workspaceDir, "cache");
    await symlink(dir, planted);
    expect(await namedAsExtraPathAndCwd(planted, { workspaceDir, networkScope: "deny" })).toEqual({
      extraPath: REFUSED,
      cwd: REFUSED,
    });
    expect(hits).toEqual([]);
  });

  // The sandbox's /dev/shm is its own (`--dev`): a path requested on the host's is bound back
  // into it, so a link there shows the host's directory as one under /run would.
  it.each<[string, Pick<LocalProcessSandboxOptions, "networkScope" | "networkAllowlist">]>([
    ["deny", { networkScope: "deny" }],
    ["allowlist", { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] }],
  ])("refuses a path in the workspace that links into the host's /dev/shm (%s)", async (_label, network) => {
    const { dir, hits } = await hostAgent("/dev/shm");
    const workspaceDir = path.join(await scratchDir("pc-links-"), "my ws");
    await mkdir(workspaceDir);
    const planted = path.join(workspaceDir, "cache");
    await symlink(dir, planted);
    expect(await namedAsExtraPathAndCwd(planted, { workspaceDir, ...network })).toEqual({
      extraPath: REFUSED,
      cwd: REFUSED,
    });
    expect(hits).toEqual([]);
  });

  // Callers often pass real paths (`process.cwd()`) while naming the workspace through a link.
  it("judges a path spelt below the workspace's real path when the workspace is named through a link", async () => {
    const { dir, hits } = await hostAgent();
    const root = await scratchDir("pc-links-");
    const realWorkspace = path.join(root, "real ws");
    await mkdir(realWorkspace);
    const workspaceDir = path.join(root, "ws link");
    await symlink(realWorkspace, workspaceDir);
    const planted = path.join(realWorkspace, "cache");
    await symlink(dir, planted);
    expect(await namedAsExtraPathAndCwd(planted, { workspaceDir, networkScope: "deny" })).toEqual({
      extraPath: REFUSED,
      cwd: REFUSED,
    });
    expect(hits).toEqual([]);
  });

  // The network-only scope binds the host root: a link to an ordinary host directory shows
  // nothing new. A pnpm-style node_modules and a checkout elsewhere keep working; the
  // workspace scope, where bwrap cannot bind onto the dangling link anyway, still refuses.
  it("keeps links to ordinary host directories working in the network-only scope, refused in the workspace scope", async () => {
    // Under /var/tmp: a directory the network-only scope does not hide.
    const store = tempDirForTest("pc-store-", { base: "/var/tmp" });
    await mkdir(path.join(store, "pkg"));
    await writeFile(path.join(store, "pkg", "index.js"), 'module.exports = "from the store";\n');
    const app = path.join(tempDirForTest("pc-code-", { base: "/var/tmp" }), "app");
    await mkdir(app);
    const workspaceDir = path.join(await scratchDir("pc-links-"), "my ws");
    await mkdir(workspaceDir);
    const nodeModules = path.join(workspaceDir, "node_modules");
    await symlink(store, nodeModules);
    await symlink(app, path.join(workspaceDir, "app"));
    const script = `require("node:fs").writeFileSync("out.txt", require(${JSON.stringify(path.join(nodeModules, "pkg"))}));`;
    const extraPaths = [{ path: nodeModules, access: "ro" as const }];

    const networkOnly = await runNodeInSandbox(
      script,
      { workspaceDir, networkScope: "deny", extraPaths },
      { cwd: path.join(workspaceDir, "app") },
    );
    expect({ exitCode: networkOnly.exitCode, stderr: networkOnly.stderr }).toEqual({
      exitCode: 0,
      stderr: "",
    });
    expect(await readFile(path.join(app, "out.txt"), "utf8")).toBe("from the store");

    const workspaceScope = await outcome(() =>
      runNodeInSandbox(script, {
        workspaceDir,
        filesystemScope: "workspace",
        networkScope: "deny",
        extraPaths,
      }),
    );
    expect(workspaceScope).toBe(REFUSED);
  });

  // The executable's directory is bound as spelt: `<ws>/tools/node` with `<ws>/tools` a link into /run.
  it("refuses an executable whose directory in the workspace links under a path the network-only scope hides", async () => {
    const { dir, hits } = await hostAgent();
    await symlink(process.execPath, path.join(dir, "node"));
    const workspaceDir = path.join(await scratchDir("pc-links-"), "my ws");
    await mkdir(workspaceDir);
    const planted = path.join(workspaceDir, "tools");
    await symlink(dir, planted);
    const result = await outcome(() =>
      runChildProcess(
        "sandbox-test",
        path.join(planted, "node"),
        ["-e", connectTo(path.join(planted, "agent.sock"))],
        {
          cwd: workspaceDir,
          env: {},
          timeoutSec: 20,
          graceSec: 1,
          onLog: async () => {},
          localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir, networkScope: "deny" },
        },
      ),
    );
    expect(result).toBe(REFUSED);
    expect(hits).toEqual([]);
  });
});
