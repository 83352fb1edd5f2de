import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import {
  canaryServer,
  cleanupAll,
  onCleanup,
  runNodeInSandbox,
  runShellInSandbox,
  scratchDir,
} from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * bwrap binds the real path of every source. A requested path that is a link to
 * `/dev/shm` or `/` (planted, say, by an earlier network-only run, which has the
 * host tree writable) would show the private socket root, where another run's
 * proxy socket lives, unmasked. A victim run holds its proxy (allowlist: a canary
 * server); each attacker sandbox (no network of its own) asks for such a link as
 * one kind of bind source, searches what it sees for `proxy.sock` and sends the
 * canary a request through every socket it finds. The canary must see nothing.
 */

const ATTACK = `
const fs = require("node:fs"), net = require("node:net"), path = require("node:path");
const [, start, port] = process.argv;
const found = [];
const walk = (dir, depth) => {
  if (depth > 3) return;
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const entry of entries) {
    const child = path.join(dir, entry.name);
    if (entry.name === "proxy.sock") found.push(child);
    else if (entry.isDirectory()) walk(child, depth + 1);
  }
};
walk(start, 0);
let opened = 0;
Promise.all(found.map((socketPath) => new Promise((done) => {
  const socket = net.connect(socketPath, () => {
    opened += 1;
    socket.end("GET http://127.0.0.1:" + port + "/escape HTTP/1.1\\r\\nHost: 127.0.0.1:" + port + "\\r\\n\\r\\n");
  });
  socket.on("data", () => {});
  socket.on("close", done);
  socket.on("error", done);
}))).then(() => console.log(JSON.stringify({ found: found.length, opened })));
`;

/** A victim run whose proxy (and so its socket in a private root) stays up until cleanup. */
async function holdVictim(canaryPort: number): Promise<void> {
  const workspaceDir = await scratchDir("pc-victim-");
  const target = await buildLocalProcessSandboxSpawnTarget({
    executable: "/bin/true",
    args: [],
    cwd: workspaceDir,
    options: {
      workspaceDir,
      filesystemScope: "workspace",
      networkScope: "allowlist",
      networkAllowlist: [`127.0.0.1:${canaryPort}`],
    },
  });
  onCleanup(async () => target.cleanup?.());
}

type Outcome = { refused: string } | { ran: string; canaryHits: number };

async function attempt(
  hits: readonly string[],
  run: () => Promise<{ stdout: string; stderr: string }>,
): Promise<Outcome> {
  const before = hits.length;
  try {
    const result = await run();
    return { ran: `${result.stdout}${result.stderr}`.trim(), canaryHits: hits.length - before };
  } catch (error) {
    if (PaperclipError.is(error)) return { refused: error.code };
    throw error;
  }
}

const REFUSED = { refused: "ERR_SANDBOX_PATH_EXPOSES_SOCKET_ROOT" };

describe("bind sources are judged by their real path", () => {
  it("refuses every kind of bind source that links to a private socket root, and no run is reached", async () => {
    const { port, hits } = await canaryServer();
    await holdVictim(port);
    const root = await scratchDir("pc-links-");
    const workspaceDir = path.join(root, "ws");
    await mkdir(workspaceDir);
    // One link inside the workspace (an alias must target the workspace), one beside it.
    const toShmInside = path.join(workspaceDir, "shm-link");
    const toShm = path.join(root, "shm-link");
    const toRoot = path.join(root, "root-link");
    await symlink("/dev/shm", toShmInside);
    await symlink("/dev/shm", toShm);
    await symlink("/", toRoot);
    const attackerScope: LocalProcessSandboxOptions = {
      workspaceDir,
      filesystemScope: "workspace",
      networkScope: "deny",
    };
    const outcomes: Record<string, Outcome> = {};
    // Each attack passes its search start and the canary's port as arguments.
    const runAttack = (
      sandbox: LocalProcessSandboxOptions,
      search: string,
      cwd?: string,
      executable?: string,
    ) =>
      attempt(hits, () =>
        runChildProcess(
          "symlink-attack",
          executable ?? process.execPath,
          executable
            ? [process.execPath, "-e", ATTACK, search, String(port)]
            : ["-e", ATTACK, search, String(port)],
          {
            cwd: cwd ?? sandbox.workspaceDir,
            env: {},
            timeoutSec: 20,
            graceSec: 1,
            onLog: async () => {},
            localProcessSandbox: { command: "/usr/bin/bwrap", ...sandbox },
          },
        ),
      );

    outcomes.extraPathToShm = await runAttack(
      { ...attackerScope, extraPaths: [{ path: toShm, access: "ro" }] },
      toShm,
    );
    outcomes.extraPathToRoot = await runAttack(
      { ...attackerScope, extraPaths: [{ path: toRoot, access: "ro" }] },
      path.join(toRoot, "dev", "shm"),
    );
    // A link in a parent component, the requested path itself naming the root below it.
    const rootThroughLink = path.join(toShm, `paperclip-sandbox-sockets-${process.getuid?.() ?? 0}`);
    outcomes.extraPathIntoRoot = await runAttack(
      { ...attackerScope, extraPaths: [{ path: rootThroughLink, access: "ro" }] },
      rootThroughLink,
    );
    outcomes.managedPath = await runAttack(
      { ...attackerScope, managedPaths: [{ path: toShm, access: "ro" }] },
      toShm,
    );
    outcomes.workspace = await runAttack({ ...attackerScope, workspaceDir: toShm }, toShm);
    outcomes.aliasTarget = await runAttack(
      { ...attackerScope, pathAliases: [{ path: "/alias", target: toShmInside }] },
      "/alias",
    );
    outcomes.networkOnlyCwd = await runAttack({ workspaceDir, networkScope: "deny" }, toShm, toShm);
    // The executable's directory: a script planted in /dev/shm, run through a link to /dev/shm.
    const planted = path.join("/dev/shm", `pc-attack-${process.pid}.sh`);
    await writeFile(planted, '#!/bin/sh\nexec "$@"\n', { mode: 0o755 });
    onCleanup(() => rm(planted, { force: true }));
    outcomes.executableDir = await runAttack(
      attackerScope,
      toShm,
      undefined,
      path.join(toShm, path.basename(planted)),
    );

    expect(outcomes).toEqual({
      extraPathToShm: REFUSED,
      extraPathToRoot: REFUSED,
      extraPathIntoRoot: REFUSED,
      managedPath: REFUSED,
      workspace: REFUSED,
      aliasTarget: REFUSED,
      networkOnlyCwd: REFUSED,
      executableDir: REFUSED,
    });
    expect(hits).toEqual([]);
  });

  it("keeps symlinked paths working where they show no root", async () => {
    const root = await scratchDir("pc-links-");
    const realWorkspace = path.join(root, "real-ws");
    const elsewhere = path.join(root, "real-data");
    await mkdir(realWorkspace);
    await mkdir(elsewhere);
    await writeFile(path.join(elsewhere, "input.txt"), "data");
    const linkedWorkspace = path.join(root, "ws-link");
    await symlink(realWorkspace, linkedWorkspace);
    const linkedData = path.join(root, "data-link");
    await symlink(elsewhere, linkedData);
    const write = `require("node:fs").writeFileSync("out.txt", require("node:fs").readFileSync(${JSON.stringify(
      path.join(linkedData, "input.txt"),
    )}, "utf8") + process.cwd())`;

    const workspaceRun = await runNodeInSandbox(write, {
      workspaceDir: linkedWorkspace,
      filesystemScope: "workspace",
      networkScope: "deny",
      extraPaths: [{ path: linkedData, access: "ro" }],
    });
    expect(workspaceRun.exitCode).toBe(0);
    expect(await readFile(path.join(realWorkspace, "out.txt"), "utf8")).toBe(`data${linkedWorkspace}`);

    // The network-only scope masks /tmp: a cwd linked into it is bound back at its real path.
    await rm(path.join(realWorkspace, "out.txt"));
    const networkOnlyRun = await runNodeInSandbox(
      write,
      { workspaceDir: root, networkScope: "deny" },
      {
        cwd: linkedWorkspace,
      },
    );
    expect(networkOnlyRun.exitCode).toBe(0);
    expect(await readFile(path.join(realWorkspace, "out.txt"), "utf8")).toMatch(/^data/);
  });

  // An alias binds its target writable at the alias. Its target is checked to lie in the workspace;
  // an earlier run (the workspace is writable) can make that spelling a link to any host directory.
  it("refuses an alias whose target links out of the workspace: the host directory is neither read nor written", async () => {
    const root = await scratchDir("pc-links-");
    const keys = path.join(root, "home", ".ssh");
    await mkdir(keys, { recursive: true });
    await writeFile(path.join(keys, "id_ed25519"), "PRIVATE KEY\n");
    const workspaceDir = path.join(root, "my ws");
    await mkdir(workspaceDir);
    await symlink(keys, path.join(workspaceDir, "cache"));
    const outcome = await attempt([], () =>
      runShellInSandbox("cat /cache/id_ed25519; echo planted > /cache/authorized_keys", {
        workspaceDir,
        filesystemScope: "workspace",
        pathAliases: [{ path: "/cache", target: path.join(workspaceDir, "cache") }],
      }),
    );
    expect(outcome).toEqual({ refused: "ERR_SANDBOX_ALIAS_OUTSIDE_WORKSPACE" });
    await expect(readFile(path.join(keys, "authorized_keys"), "utf8")).rejects.toThrow(/ENOENT/);
  });
});
