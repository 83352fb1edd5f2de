import { constants } from "node:fs";
import { mkdir, open, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { buildStaticFixture, runWhileHostActs } from "./attack-support.js";
import { cleanupAll, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

let goOnFiles = 0;

/** How a host open for writing fares: "ok", or the code it failed with (EAGAIN: a lease is held). */
async function hostOpensForWriting(file: string): Promise<string> {
  try {
    await (await open(file, constants.O_WRONLY | constants.O_NONBLOCK)).close();
    return "ok";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

/**
 * Runs `file-lease` on `file` and, once it has said whether it holds a lease, tries the host's
 * open for writing while the program still runs.
 */
async function leaseWhileHostWrites(
  binary: string,
  ws: string,
  file: string,
  sandbox: Omit<LocalProcessSandboxOptions, "workspaceDir">,
): Promise<{ program: string; host: string | undefined }> {
  // Written by the host, so a read-only workspace holds it too; one per run, as runs share a workspace.
  goOnFiles += 1;
  const goOn = path.join(ws, `go-on-${goOnFiles}`);
  const { stdout, acted } = await runWhileHostActs(ws, sandbox, binary, [file, goOn], {
    ready: /^(lease|open) /m,
    goOn,
    hostAct: () => hostOpensForWriting(file),
  });
  return { program: stdout, host: acted };
}

describe("file leases", () => {
  it("a program holds no lease on a file it may only read, so no host write waits for it, in any scope", async () => {
    const ws = await scratchDir();
    const binary = await buildStaticFixture("file-lease", await scratchDir());
    // A host file outside the workspace, given read-only; the runner owns it, as a root runner owns /etc.
    const outside = await scratchDir();
    const given = path.join(outside, "settings.json");
    await writeFile(given, "{}\n");
    const readOnlyWorkspace = await scratchDir();
    await mkdir(path.join(readOnlyWorkspace, "src"));
    const inReadOnlyWorkspace = path.join(readOnlyWorkspace, "src", "main.c");
    await writeFile(inReadOnlyWorkspace, "int main(void) { return 0; }\n");
    // The network-only scopes hide the host's /tmp, where these directories are: a workspace file there.
    const inWorkspace = path.join(ws, "notes.txt");
    await writeFile(inWorkspace, "notes\n");
    type Run = [workspace: string, file: string, scope: Omit<LocalProcessSandboxOptions, "workspaceDir">];
    const runs: Record<string, Run> = {
      "workspace, read-only extra path": [
        ws,
        given,
        { filesystemScope: "workspace", networkScope: "deny", extraPaths: [{ path: outside, access: "ro" }] },
      ],
      "read-only workspace": [
        readOnlyWorkspace,
        inReadOnlyWorkspace,
        { filesystemScope: "workspace", filesystemWorkspaceAccess: "ro", networkScope: "deny" },
      ],
      "network-only, deny": [ws, inWorkspace, { networkScope: "deny" }],
      "network-only, allowlist": [
        ws,
        inWorkspace,
        { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"] },
      ],
    };
    const seen: Record<string, { program: string; host: string | undefined }> = {};
    for (const [name, [workspace, file, scope]] of Object.entries(runs)) {
      seen[name] = await leaseWhileHostWrites(binary, workspace, file, scope);
    }
    const refused = { program: "lease EPERM\ndone\n", host: "ok" };
    expect(seen).toEqual(Object.fromEntries(Object.keys(runs).map((name) => [name, refused])));
  }, 90_000);
});
