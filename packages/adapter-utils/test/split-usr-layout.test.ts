import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtEntry, exec, repoRoot } from "./sandbox-support.js";

/**
 * This host has a merged /usr. To prove the argv also works on a split layout
 * (real /bin, /sbin, /lib, /lib64 directories), an outer bwrap builds such a root
 * and our package runs inside it, starting its own real sandbox there.
 */
/** The Node install running the tests: a pinned Node (Node 22/24 in ~/.cache) lives outside /usr. */
const nodePrefix = path.dirname(path.dirname(realpathSync(process.execPath)));
const nodeOutsideUsr = !`${nodePrefix}/`.startsWith("/usr/");

describe("split /usr layout", () => {
  it("binds real /bin, /lib directories and runs programs from them", async () => {
    const script = `
      const { buildLocalProcessSandboxSpawnTarget, runChildProcess } = await import(${JSON.stringify(builtEntry)});
      const fs = await import("node:fs");
      fs.mkdirSync("/tmp/ws");
      const options = { workspaceDir: "/tmp/ws", filesystemScope: "workspace", networkScope: "deny" };
      const target = await buildLocalProcessSandboxSpawnTarget({ executable: "/bin/sh", args: [], cwd: "/tmp/ws", options });
      const result = await runChildProcess("split", "/bin/sh", ["-c", "test -d /bin && test ! -L /bin && /bin/ls /lib >/dev/null && echo split-ok"], {
        cwd: "/tmp/ws", env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {}, localProcessSandbox: options,
      });
      console.log(JSON.stringify({ hostBinIsLink: fs.lstatSync("/bin").isSymbolicLink(), args: target.args, result }));`;
    const outer = [
      "--tmpfs",
      "/",
      "--ro-bind",
      "/usr",
      "/usr",
      "--ro-bind",
      "/usr/bin",
      "/bin",
      "--ro-bind",
      "/usr/sbin",
      "/sbin",
      "--ro-bind",
      "/usr/lib",
      "/lib",
      // Real directories where the host has links (lib64 only where the architecture has it).
      ...(existsSync("/usr/lib64") ? ["--ro-bind", "/usr/lib64", "/lib64"] : []),
      "--ro-bind",
      "/etc",
      "/etc",
      // /tmp before the repository: a checkout under /tmp must stay visible.
      "--tmpfs",
      "/tmp",
      "--ro-bind",
      repoRoot,
      repoRoot,
      ...(nodeOutsideUsr ? ["--ro-bind", nodePrefix, nodePrefix] : []),
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--unshare-pid",
      "--die-with-parent",
      // The inner sandbox needs mount rights inside the outer one.
      "--cap-add",
      "ALL",
      "--",
      process.execPath,
      "--input-type=module",
      "-e",
      script,
    ];
    const run = await exec("bwrap", outer, { PATH: "/usr/bin:/bin" });
    expect(run.stderr).toBe("");
    const outcome = JSON.parse(run.stdout) as {
      hostBinIsLink: boolean;
      args: string[];
      result: { exitCode: number; stdout: string; stderr: string };
    };
    expect(outcome.hostBinIsLink).toBe(false);
    const argv = outcome.args.join(" ");
    expect(argv).toContain("--ro-bind /bin /bin");
    expect(argv).toContain("--ro-bind /lib /lib");
    expect(argv).not.toContain("--symlink usr/bin /bin");
    expect(outcome.result.exitCode, outcome.result.stderr).toBe(0);
    expect(outcome.result.stdout).toBe("split-ok\n");
  });
});
