import { lstatSync, readlinkSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import { cleanupAll, runNodeInSandbox, runShellInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

async function workspace(): Promise<{ root: string; ws: string }> {
  const root = await scratchDir();
  const ws = path.join(root, "ws");
  await mkdir(ws);
  return { root, ws };
}

describe("workspace scope with real bwrap", () => {
  it("starts on this host's /usr layout: /bin and /lib look as on the host and system tools run", async () => {
    const { ws } = await workspace();
    const result = await runShellInSandbox(
      'for p in /bin /lib; do if [ -L $p ]; then readlink $p; else echo dir; fi; done; ls /usr/bin/env >/dev/null && /bin/sh -c "echo shell-ok"',
      { workspaceDir: ws, filesystemScope: "workspace" },
    );
    // On a merged-/usr host (this Debian 12) both are links into /usr, recreated as such.
    const host = (link: string) => (lstatSync(link).isSymbolicLink() ? readlinkSync(link) : "dir");
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${host("/bin")}\n${host("/lib")}\nshell-ok\n`);
  });

  it("keeps symlinked /etc files usable (localtime as a link, resolv.conf and hosts readable)", async () => {
    const { ws } = await workspace();
    const script = `
      const fs = require("node:fs");
      const out = {
        localtime: fs.lstatSync("/etc/localtime").isSymbolicLink() ? fs.readlinkSync("/etc/localtime") : "file",
        zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        resolv: fs.readFileSync("/etc/resolv.conf", "utf8").length > 0,
        hosts: fs.readFileSync("/etc/hosts", "utf8").includes("localhost"),
      };
      console.log(JSON.stringify(out));`;
    const result = await runNodeInSandbox(script, { workspaceDir: ws, filesystemScope: "workspace" });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      localtime: readlinkSync("/etc/localtime"),
      zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      resolv: true,
      hosts: true,
    });
  });

  it("hides the host outside the workspace and gives a private /tmp and a working /dev/null", async () => {
    const { root, ws } = await workspace();
    await writeFile(path.join(root, "secret.txt"), "host-secret");
    // A file in the host's /tmp (the helper's directories live there), hidden by the private /tmp.
    const hostTmpFile = path.join(await scratchDir(), "host-visible.txt");
    await writeFile(hostTmpFile, "host-tmp");
    const result = await runShellInSandbox(
      `cat ${shellQuote(`${root}/secret.txt`)} 2>/dev/null && exit 9; cat ${shellQuote(hostTmpFile)} 2>/dev/null && exit 8; ` +
        "ls /root /home /var 2>/dev/null && exit 7; echo ok > /dev/null && echo written > out.txt",
      { workspaceDir: ws, filesystemScope: "workspace" },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    await expect(readFile(path.join(ws, "out.txt"), "utf8")).resolves.toBe("written\n");
  });

  it("mounts the workspace read-only with filesystemWorkspaceAccess ro", async () => {
    const { ws } = await workspace();
    const result = await runShellInSandbox("touch x 2>&1", {
      workspaceDir: ws,
      filesystemScope: "workspace",
      filesystemWorkspaceAccess: "ro",
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toContain("Read-only file system");
  });

  it("keeps a read-only extra path inside the writable workspace read-only", async () => {
    const { ws } = await workspace();
    await mkdir(path.join(ws, ".git"));
    const result = await runShellInSandbox("touch ok.txt && touch .git/HEAD 2>&1", {
      workspaceDir: ws,
      filesystemScope: "workspace",
      extraPaths: [{ path: path.join(ws, ".git"), access: "ro" }],
    });
    expect(result.stdout).toContain("Read-only file system");
    await expect(readFile(path.join(ws, "ok.txt"), "utf8")).resolves.toBe("");
  });

  it("binds an alias to the workspace and a read-only extra file", async () => {
    const { root, ws } = await workspace();
    await writeFile(path.join(root, "allowed.txt"), "allowed-value");
    await writeFile(path.join(ws, "in-ws.txt"), "via-alias");
    const result = await runShellInSandbox(`cat /app/in-ws.txt; cat ${shellQuote(`${root}/allowed.txt`)}`, {
      workspaceDir: ws,
      filesystemScope: "workspace",
      pathAliases: [{ path: "/app", target: ws }],
      extraPaths: [{ path: path.join(root, "allowed.txt"), access: "ro" }],
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("via-aliasallowed-value");
  });

  it("emits no bind onto a path that is a symlink on this host", async () => {
    const { ws } = await workspace();
    const target = await buildLocalProcessSandboxSpawnTarget({
      executable: "/bin/sh",
      args: [],
      cwd: ws,
      options: {
        workspaceDir: ws,
        filesystemScope: "workspace",
        extraPaths: [{ path: "/lib/x86_64-linux-gnu", access: "ro" }],
      },
    });
    const args = target.args;
    // Every scope drops all capabilities: bwrap would keep them for a root runner.
    expect(args.slice(0, 7)).toEqual([
      "--die-with-parent",
      "--new-session",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--cap-drop",
      "ALL",
    ]);
    for (let index = 0; index < args.length; index += 1) {
      if (args[index] === "--bind" || args[index] === "--ro-bind") {
        const dest = args[index + 2]!;
        for (const link of ["/bin", "/sbin", "/lib", "/lib64"]) {
          if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) {
            expect(dest === link || dest.startsWith(`${link}/`), `${args[index]} onto ${dest}`).toBe(false);
          }
        }
      }
    }
  });
});
