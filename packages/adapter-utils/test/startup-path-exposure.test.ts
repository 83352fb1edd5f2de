import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { cleanupAll, onCleanup } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * A runner's home directory as a person's looks: a private key, and a `package.json` that
 * a stray `npm install` left there. `HOME` names it for the duration of the test (the
 * runner's home is what `os.homedir()` answers).
 */
async function homeWithStrayPackage(): Promise<{ home: string; ws: string }> {
  const base = tempDirForTest("pc-package-root-", { base: "/var/tmp" });
  const home = path.join(base, "home");
  const ws = path.join(base, "ws");
  await mkdir(path.join(home, ".ssh"), { recursive: true });
  await mkdir(ws);
  await writeFile(path.join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
  await writeFile(path.join(home, "package.json"), '{ "dependencies": { "left-pad": "1.3.0" } }\n');
  const before = process.env.HOME;
  process.env.HOME = home;
  onCleanup(async () => {
    process.env.HOME = before;
  });
  return { home, ws };
}

/** Writes an executable shell script. */
async function script(file: string, body: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
}

function runInWorkspaceScope(executable: string, ws: string) {
  return runChildProcess("package-root", executable, [], {
    cwd: ws,
    env: {},
    timeoutSec: 30,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: {
      command: "/usr/bin/bwrap",
      workspaceDir: ws,
      filesystemScope: "workspace",
      networkScope: "deny",
    },
  });
}

describe("the package root of a program outside the workspace", () => {
  it("is never the runner's home directory: a stray package.json there shows nothing of it", async () => {
    const { home, ws } = await homeWithStrayPackage();
    // A standalone program in ~/.local/bin: no package of its own, so the walk up met ~.
    const tool = path.join(home, ".local", "bin", "tool");
    await script(tool, `cat ${home}/.ssh/id_ed25519 2>/dev/null || echo "no key"; ls -A ${home}`);
    const result = await runInWorkspaceScope(tool, ws);
    expect(result.exitCode, result.stderr).toBe(0);
    // The program's own directory is all it needs, and all that is shown of the home directory.
    expect(result.stdout).toBe("no key\n.local\n");
  }, 60_000);

  it("still is a package's own directory inside the home directory, which the program needs", async () => {
    const { home, ws } = await homeWithStrayPackage();
    const root = path.join(home, ".local", "lib", "tool");
    await writeFile(path.join(await mkdirp(root), "package.json"), '{ "name": "tool" }\n');
    await script(path.join(root, "lib", "helper.sh"), "echo helper");
    const tool = path.join(root, "bin", "tool");
    await script(tool, `sh ${root}/lib/helper.sh; cat ${home}/.ssh/id_ed25519 2>/dev/null || echo "no key"`);
    const result = await runInWorkspaceScope(tool, ws);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("helper\nno key\n");
  }, 60_000);
});

describe("the directory of a program that lives directly in the home directory", () => {
  it("is not shown: the program's file alone is", async () => {
    const { home, ws } = await homeWithStrayPackage();
    const tool = path.join(home, "tool");
    await script(tool, `cat ${home}/.ssh/id_ed25519 2>/dev/null || echo "no key"; ls -A ${home}`);
    const result = await runInWorkspaceScope(tool, ws);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("no key\ntool\n");
  }, 60_000);
});

describe("the directory of a program that lives directly in /tmp", () => {
  it("is not shown: the host's /tmp holds other processes' sockets (tmux, ssh-agent, PostgreSQL)", async () => {
    const { ws } = await homeWithStrayPackage();
    const unique = `pc-startup-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    // A host socket beside it: a ro bind does not stop connect(), being shown is enough.
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(`/tmp/${unique}.sock`, resolve));
    onCleanup(() => new Promise((resolve) => server.close(resolve)));
    const tool = `/tmp/${unique}.sh`;
    await script(tool, `test -S /tmp/${unique}.sock && echo "socket shown" || echo "no socket"`);
    onCleanup(() => rm(tool, { force: true }));
    const result = await runInWorkspaceScope(tool, ws);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("no socket\n");
  }, 60_000);
});

async function mkdirp(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
