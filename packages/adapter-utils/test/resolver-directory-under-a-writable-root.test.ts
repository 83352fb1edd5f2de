import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { execContainerScript, inRootContainer } from "./root-container.js";
import { builtEntry, cleanupAll, viaRepoView } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * A root runner's workspace-scope run given `/` writable, on a host where `/etc` is a plain
 * directory (no mount point): `/etc/hosts` and `/etc/resolv.conf` were read-only mounts,
 * but `mv /etc /etc.old` took them along, and an `/etc` of the program's own then held the
 * resolver files every later run's proxy reads. `/etc` is now a mount point in the sandbox.
 * The host is a container of the test's own whose root is a scratch directory.
 */
describe("a root runner's workspace-scope run given / writable", () => {
  it("cannot rename /etc away from the resolver files, and still writes in it", async () => {
    expect(process.getuid?.(), "the runner is root").toBe(0);
    const root = tempDirForTest("pc-resolver-rw-root-");
    const etc = path.join(root, "etc");
    await cp("/etc", etc, { recursive: true, verbatimSymlinks: true });
    await rm(path.join(etc, "resolv.conf"), { force: true });
    await writeFile(path.join(etc, "resolv.conf"), "nameserver 192.0.2.53\n");
    await mkdir(path.join(root, "ws"));
    const program = [
      "if (mv /etc /etc.old && mkdir /etc && echo 'nameserver 203.0.113.7' > /etc/resolv.conf) 2>/dev/null; then echo etc swapped; else echo etc kept; fi",
      "touch /etc/pc-probe && rm /etc/pc-probe && echo etc writable",
    ].join("\n");
    const script = `
      const { runChildProcess } = await import(${JSON.stringify(viaRepoView(builtEntry))});
      const result = await runChildProcess("etc-rename", "/bin/sh", ["-c", ${JSON.stringify(program)}], {
        cwd: "/ws", env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {},
        localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: "/ws", filesystemScope: "workspace",
          outboundRestorePaths: ["/"], extraPaths: [{ path: "/", access: "rw" }] },
      });
      console.log(JSON.stringify({ exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr }));`;
    const result = await inRootContainer(root, execContainerScript, {
      PATH: process.env.PATH,
      SCRIPT: script,
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      exitCode: 0,
      stdout: "etc kept\netc writable\n",
      stderr: "",
    });
    expect(existsSync(path.join(root, "etc.old")), "/etc renamed").toBe(false);
    expect(await readFile(path.join(etc, "resolv.conf"), "utf8")).toBe("nameserver 192.0.2.53\n");
  }, 60_000);
});
