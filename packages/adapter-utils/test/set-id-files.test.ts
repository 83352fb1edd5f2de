import { chmod, chown, mkdir } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import {
  bindRepoView,
  builtEntry,
  cleanupAll,
  exec,
  inPrivateMountNamespace,
  viaRepoView,
} from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The program, in its working directory: every way Node and coreutils have to give a file
 * it made a set-user-ID or set-group-ID mode, and one ordinary chmod that must still work.
 * Prints each outcome (`ok` or the error's code).
 */
const PROGRAM = `
const fs = require("node:fs");
const { execFileSync } = require("node:child_process");
const sh = fs.readFileSync("/bin/sh");
const out = {};
const attempt = (name, run) => { try { run(); out[name] = "ok"; } catch (error) { out[name] = error.code ?? String(error.status); } };
const made = (name) => { fs.writeFileSync(name, sh, { mode: 0o755 }); return name; };
attempt("chmod-setuid", () => fs.chmodSync(made("a"), 0o4755));
attempt("chmod-setgid", () => fs.chmodSync(made("b"), 0o2755));
attempt("fchmod-setuid", () => { const fd = fs.openSync(made("c"), "r+"); try { fs.fchmodSync(fd, 0o4755); } finally { fs.closeSync(fd); } });
attempt("open-create-setuid", () => fs.closeSync(fs.openSync("d", "w", 0o4755)));
attempt("coreutils-chmod", () => execFileSync("chmod", ["u+s,g+s", made("e")], { stdio: "ignore" }));
attempt("ordinary-chmod", () => fs.chmodSync(made("f"), 0o700));
console.log(JSON.stringify(out));`;

const REFUSED = {
  "chmod-setuid": "EPERM",
  "chmod-setgid": "EPERM",
  "fchmod-setuid": "EPERM",
  "open-create-setuid": "EPERM",
  "coreutils-chmod": "1",
  "ordinary-chmod": "ok",
};

/** Runs PROGRAM in each scope through the built package, as root or as uid 65534; returns each outcome. */
async function runInEveryScope(runAs: "root" | "nobody", ws: string) {
  const script = `
    const { runChildProcess } = await import(${JSON.stringify(viaRepoView(builtEntry))});
    const out = {};
    const scopes = {
      workspace: { filesystemScope: "workspace" },
      workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
      networkOnlyDeny: { networkScope: "deny" },
      networkOnlyAllowlist: { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"] },
    };
    for (const [name, scope] of Object.entries(scopes)) {
      const cwd = ${JSON.stringify(ws)} + "/" + name;
      require("node:fs").mkdirSync(cwd);
      const result = await runChildProcess("set-id", process.execPath, ["-e", process.env.PROGRAM], {
        cwd, env: {}, timeoutSec: 30, graceSec: 1, onLog: async () => {},
        localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ${JSON.stringify(ws)}, ...scope },
      });
      out[name] = result.exitCode === 0 ? JSON.parse(result.stdout) : result.stderr;
    }
    console.log(JSON.stringify(out));`;
  const node = `${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`;
  const asUser = runAs === "root" ? node : `setpriv --reuid=65534 --regid=65534 --clear-groups ${node}`;
  const preamble = `const require = (await import("node:module")).createRequire(import.meta.url);`;
  return inPrivateMountNamespace(`${bindRepoView} && exec ${asUser}`, {
    PATH: process.env.PATH,
    HOME: ws,
    SCRIPT: preamble + script,
    PROGRAM,
  });
}

/** Every file below `dir` whose mode has a set-ID bit, as the host sees it. */
async function setIdFiles(dir: string): Promise<string> {
  return (await exec("find", [dir, "-perm", "/6000"])).stdout;
}

describe("set-user-ID and set-group-ID files", () => {
  it.each(["root", "nobody"] as const)(
    "a program run as %s leaves none on the host, in either filesystem and network scope",
    async (runAs) => {
      const base = tempDirForTest("pc-set-id-", { base: "/var/tmp" });
      const ws = path.join(base, "ws");
      await mkdir(ws);
      await chmod(base, 0o755);
      if (runAs === "nobody") await chown(ws, 65534, 65534);
      const result = await runInEveryScope(runAs, ws);
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({
        workspace: REFUSED,
        workspaceDeny: REFUSED,
        networkOnlyDeny: REFUSED,
        networkOnlyAllowlist: REFUSED,
      });
      // A set-ID file in a host directory runs with its owner's uid for every local user there.
      expect(await setIdFiles(ws)).toBe("");
    },
    120_000,
  );
});
