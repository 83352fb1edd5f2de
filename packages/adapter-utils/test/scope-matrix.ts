import { shellQuote } from "@paperclipai/internal";
import {
  bindRepoView,
  builtEntry,
  type ExecResult,
  inPrivateMountNamespace,
  viaRepoView,
} from "./sandbox-support.js";

/** Every filesystem scope, alone and with each network scope a hostile program gets. */
export const SCOPE_MATRIX = {
  workspace: { filesystemScope: "workspace" },
  workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
  networkOnlyDeny: { networkScope: "deny" },
  networkOnlyAllowlist: { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"] },
} as const;

export type ScopeName = keyof typeof SCOPE_MATRIX;

/**
 * Runs `program` (Node source, its stdout one JSON value) in each scope of `SCOPE_MATRIX`
 * through the built package, as root or as uid 65534 (`setpriv`, the repository through
 * its view), each in a directory of its own below `ws`, the workspace (which the caller
 * makes writable for that uid). Its stdout: `{ [scope]: parsed output, or bwrap's stderr }`.
 */
export function runInScopeMatrix(runAs: "root" | "nobody", ws: string, program: string): Promise<ExecResult> {
  const script = `
    const fs = await import("node:fs");
    const { runChildProcess } = await import(${JSON.stringify(viaRepoView(builtEntry))});
    const out = {};
    for (const [name, scope] of Object.entries(${JSON.stringify(SCOPE_MATRIX)})) {
      const cwd = ${JSON.stringify(ws)} + "/" + name;
      fs.mkdirSync(cwd);
      const result = await runChildProcess("scope-matrix", process.execPath, ["-e", process.env.PROGRAM], {
        cwd, env: {}, timeoutSec: 60, graceSec: 1, onLog: async () => {},
        localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ${JSON.stringify(ws)}, ...scope },
      });
      out[name] = result.exitCode === 0 ? JSON.parse(result.stdout) : result.stderr;
    }
    console.log(JSON.stringify(out));`;
  const node = `${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`;
  const asUser = runAs === "root" ? node : `setpriv --reuid=65534 --regid=65534 --clear-groups ${node}`;
  return inPrivateMountNamespace(`${bindRepoView} && exec ${asUser}`, {
    PATH: process.env.PATH,
    HOME: ws,
    SCRIPT: script,
    PROGRAM: program,
  });
}
