import { chmod, chown, mkdir, writeFile } from "node:fs/promises";
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
  scopesProbeScript,
  viaRepoView,
} from "./sandbox-support.js";

afterEach(cleanupAll);

/** Prints the effective uid it runs with: 0 when its setuid-root bit took effect. */
const EUID_SOURCE = `#include <stdio.h>
#include <unistd.h>
int main(void) { printf("%d\\n", (int)geteuid()); return 0; }
`;

/** As uid 65534 (no capabilities, modes bind it), with the repository through its view. */
function asNobody(command: string, env: NodeJS.ProcessEnv = {}) {
  return inPrivateMountNamespace(
    `${bindRepoView} && exec setpriv --reuid=65534 --regid=65534 --clear-groups ${command}`,
    { PATH: process.env.PATH, ...env },
  );
}

describe("setuid binaries", () => {
  it("give an unprivileged runner's program no other uid, in the workspace and network-only scopes", async () => {
    const base = tempDirForTest("pc-setuid-", { base: "/var/tmp" });
    const tools = path.join(base, "tools");
    const ws = path.join(base, "ws");
    await mkdir(tools);
    await mkdir(ws);
    await chmod(base, 0o755);
    await chown(ws, 65534, 65534);
    await writeFile(path.join(base, "euid.c"), EUID_SOURCE);
    const euid = path.join(tools, "euid");
    const built = await exec(process.env.CC || "cc", [
      "-O1",
      "-static",
      "-o",
      euid,
      path.join(base, "euid.c"),
    ]);
    expect(built.code, built.stderr).toBe(0);
    await chown(euid, 0, 0);
    await chmod(euid, 0o4755);
    // The bit is live on the host: run directly, uid 65534 becomes 0.
    expect((await asNobody(shellQuote(euid))).stdout).toBe("0\n");
    const script = scopesProbeScript({
      entry: viaRepoView(builtEntry),
      command: euid,
      args: [],
      workspace: ws,
      scopes: {
        workspace: { filesystemScope: "workspace", extraPaths: [{ path: tools, access: "ro" }] },
        networkOnly: { networkScope: "deny" },
      },
    });
    const result = await asNobody(`${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`, {
      HOME: ws,
      SCRIPT: script,
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ workspace: "65534\n", networkOnly: "65534\n" });
  }, 90_000);
});
