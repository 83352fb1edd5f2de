import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { cleanupAll, runShellInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * A link an earlier run leaves in the workspace that leads, as bwrap resolves it while it
 * builds the sandbox, to `host` through the host root bwrap keeps at `/oldroot`: enough `..`
 * to climb out of `/newroot/<from>` (extra ones stop at `/`). On the host itself the link
 * dangles (there is no `/oldroot`), so no host-side resolution sees where it leads.
 */
function viaOldRoot(from: string, host: string): string {
  return `${"../".repeat(from.split("/").length + 2)}oldroot${host}`;
}

async function outcome(line: string, sandbox: LocalProcessSandboxOptions): Promise<string> {
  try {
    const result = await runShellInSandbox(line, sandbox);
    return `ran ${result.exitCode}: ${result.stdout}${result.stderr}`.trim();
  } catch (error) {
    if (PaperclipError.is(error)) return error.code;
    throw error;
  }
}

describe("alias destinations below a bound directory", () => {
  // bwrap creates a missing alias destination (mkdir -p, or an empty file for a file target)
  // before binding there. Below the workspace that is a host path, which bwrap resolved
  // through the planted link into the host root: on the old code each case below left
  // `made-by-bwrap` in the directory outside every bind, as the runner (root: `/etc/nologin`).
  it("refuses an alias that a planted link would take out of the workspace: nothing is created on the host", async () => {
    const root = await scratchDir("pc-alias-dest-");
    const outside = path.join(root, "outside");
    const ws = path.join(root, "ws");
    await mkdir(outside);
    await mkdir(path.join(ws, "cache", ".git", "info"), { recursive: true });
    await writeFile(path.join(ws, "cache", "file"), "data\n");
    await mkdir(path.join(ws, ".git"));
    await symlink(viaOldRoot(ws, outside), path.join(ws, ".tool"));
    await symlink(viaOldRoot(path.join(ws, ".git"), outside), path.join(ws, ".git", "hooks"));
    const cases: [string, LocalProcessSandboxOptions][] = [
      [
        "directory target",
        {
          workspaceDir: ws,
          filesystemScope: "workspace",
          networkScope: "deny",
          pathAliases: [{ path: path.join(ws, ".tool", "made-by-bwrap"), target: path.join(ws, "cache") }],
        },
      ],
      [
        "file target",
        {
          workspaceDir: ws,
          filesystemScope: "workspace",
          pathAliases: [
            { path: path.join(ws, ".tool", "made-by-bwrap"), target: path.join(ws, "cache", "file") },
          ],
        },
      ],
      [
        "below a read-only extra path",
        {
          workspaceDir: ws,
          filesystemScope: "workspace",
          networkScope: "deny",
          extraPaths: [{ path: path.join(ws, ".git"), access: "ro" }],
          pathAliases: [
            { path: path.join(ws, ".git", "hooks", "made-by-bwrap"), target: path.join(ws, "cache") },
          ],
        },
      ],
    ];
    for (const [name, sandbox] of cases) {
      const result = await outcome("true", sandbox);
      expect({ result, created: await readdir(outside) }, name).toEqual({
        result: "ERR_SANDBOX_ALIAS_PATH_LINKED",
        created: [],
      });
    }
  });

  it("still makes an alias below the workspace through plain directories, inside the workspace", async () => {
    const ws = await scratchDir("pc-alias-dest-");
    await mkdir(path.join(ws, "cache"));
    await writeFile(path.join(ws, "cache", "file"), "data\n");
    const alias = path.join(ws, "sub", "view");
    const result = await outcome(`cat ${alias}/file`, {
      workspaceDir: ws,
      filesystemScope: "workspace",
      networkScope: "deny",
      pathAliases: [{ path: alias, target: path.join(ws, "cache") }],
    });
    expect(result).toBe("ran 0: data");
    // bwrap made the destination in the host's workspace, where the sandbox shows it.
    expect(await readdir(path.join(ws, "sub"))).toEqual(["view"]);
    expect(await readFile(path.join(ws, "cache", "file"), "utf8")).toBe("data\n");
  });
});
