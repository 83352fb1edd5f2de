import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, exec } from "./sandbox-support.js";
import { runInScopeMatrix, scopeMatrixWorkspace } from "./scope-matrix.js";

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

/** Every file below `dir` whose mode has a set-ID bit, as the host sees it. */
async function setIdFiles(dir: string): Promise<string> {
  return (await exec("find", [dir, "-perm", "/6000"])).stdout;
}

describe("set-user-ID and set-group-ID files", () => {
  it.each(["root", "nobody"] as const)(
    "a program run as %s leaves none on the host, in either filesystem and network scope",
    async (runAs) => {
      const ws = await scopeMatrixWorkspace(runAs, "pc-set-id-");
      const result = await runInScopeMatrix(runAs, ws, PROGRAM);
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
