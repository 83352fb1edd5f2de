import { chmod, chown, mkdir } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import {
  bindRepoView,
  builtEntry,
  type ExecResult,
  inPrivateMountNamespace,
  packageDir,
  viaRepoView,
} from "./sandbox-support.js";

const cliBin = path.join(packageDir, "bin", "paperclip-sandbox.js");

/** Every filesystem scope, alone and with each network scope a hostile program gets. */
export const SCOPE_MATRIX = {
  workspace: { filesystemScope: "workspace" },
  workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
  networkOnlyDeny: { networkScope: "deny" },
  networkOnlyAllowlist: { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"] },
} as const;

export type ScopeName = keyof typeof SCOPE_MATRIX;

/** The same four scopes as the CLI's flags (no `--allow`: network deny; `--host-fs`: the network-only scope). */
export const CLI_SCOPE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  workspaceDeny: [],
  workspaceAllowlist: ["--allow", "127.0.0.1:9"],
  networkOnlyDeny: ["--host-fs"],
  networkOnlyAllowlist: ["--host-fs", "--allow", "127.0.0.1:9"],
};

/**
 * This Node as uid 65534 can run it, for a shell in a private mount namespace: its directory
 * bound at `<base>/node-bin` (`mount`, run first), since the pinned Nodes of other majors
 * live below root's 0700 home. `base` must be searchable by that uid.
 */
export function nodeForNobody(base: string): { mount: string; node: string } {
  const dir = path.join(base, "node-bin");
  const mount = `mkdir -p ${shellQuote(dir)} && mount --bind ${shellQuote(path.dirname(process.execPath))} ${shellQuote(dir)}`;
  return { mount, node: path.join(dir, path.basename(process.execPath)) };
}

/** Where the CLI runs as root or as uid 65534 (`cliRunAs`), and how. */
export interface CliRun {
  /** The test's directory below `/var/tmp`: its files are the host's, outside the workspace. */
  readonly base: string;
  /** The workspace, that uid's own. */
  readonly ws: string;
  readonly uid: number;
  /** The CLI's argv (quoted for a shell) in the workspace with `flags`, running `sh -c program`. */
  cli(flags: readonly string[], program: string): string;
  /** Runs `command` in a shell as that uid, with the repository's view bound (`inPrivateMountNamespace`). */
  shell(command: string): Promise<ExecResult>;
}

/**
 * A directory below `/var/tmp` (`prefix` names it, `baseMode` its mode) holding a workspace
 * owned by `runAs`, and the CLI run there as that uid: uid 65534 through `setpriv`, its Node
 * through `nodeForNobody`.
 */
export async function cliRunAs(runAs: "root" | "nobody", prefix: string, baseMode: number): Promise<CliRun> {
  const base = tempDirForTest(prefix, { base: "/var/tmp" });
  const ws = path.join(base, "ws");
  await mkdir(ws);
  await chmod(base, baseMode);
  const uid = runAs === "root" ? 0 : 65534;
  await chown(ws, uid, uid);
  const nobodys = nodeForNobody(base);
  const node = runAs === "root" ? process.execPath : nobodys.node;
  const asUser =
    runAs === "root" ? "" : `${nobodys.mount} && setpriv --reuid=65534 --regid=65534 --clear-groups `;
  return {
    base,
    ws,
    uid,
    cli: (flags, program) =>
      [node, viaRepoView(cliBin), ...flags, "--workspace", ws, "--", "sh", "-c", program]
        .map(shellQuote)
        .join(" "),
    shell: (command) =>
      inPrivateMountNamespace(`${bindRepoView} && ${asUser}sh -c ${shellQuote(command)}`, {
        PATH: process.env.PATH,
        HOME: ws,
      }),
  };
}

/**
 * A workspace for `runInScopeMatrix` in a temporary directory of the test below `/var/tmp`
 * (`prefix` names it): its parent searchable by every uid, the workspace that uid's own.
 */
export async function scopeMatrixWorkspace(runAs: "root" | "nobody", prefix: string): Promise<string> {
  const base = tempDirForTest(prefix, { base: "/var/tmp" });
  const ws = path.join(base, "ws");
  await mkdir(ws);
  await chmod(base, 0o755);
  if (runAs === "nobody") await chown(ws, 65534, 65534);
  return ws;
}

/**
 * Runs `program` (Node source, its stdout one JSON value) in each scope of `SCOPE_MATRIX`
 * through the built package, as root or as uid 65534 (`setpriv`, the repository through
 * its view, and Node through `nodeForNobody`), each in a directory of its own below `ws`,
 * the workspace (which the caller makes writable for that uid; its parent searchable). Its stdout: `{ [scope]: parsed output, or bwrap's stderr }`.
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
  const nobodys = nodeForNobody(path.dirname(ws));
  const node = `${shellQuote(runAs === "root" ? process.execPath : nobodys.node)} --input-type=module -e "$SCRIPT"`;
  const asUser =
    runAs === "root"
      ? `exec ${node}`
      : `${nobodys.mount} && exec setpriv --reuid=65534 --regid=65534 --clear-groups ${node}`;
  return inPrivateMountNamespace(`${bindRepoView} && ${asUser}`, {
    PATH: process.env.PATH,
    HOME: ws,
    SCRIPT: script,
    PROGRAM: program,
  });
}
