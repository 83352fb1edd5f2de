import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { cleanupAll, exec, packageDir, runShellInSandbox } from "./sandbox-support.js";

afterEach(cleanupAll);

const bin = path.join(packageDir, "bin", "paperclip-sandbox.js");

/** Appends to a file of the read-only path, makes one there, and writes in its writable subdirectory. */
function attack(dir: string): string {
  const q = (file: string) => JSON.stringify(path.join(dir, file));
  return [
    `echo changed >> ${q("config")} 2>/dev/null && echo appended || echo refused`,
    `touch ${q("planted")} 2>/dev/null && echo planted || echo refused`,
    `echo out > ${q("out/result")} && echo written`,
  ].join("; ");
}

/** A host directory outside the workspace: a file in it, and a subdirectory the run may write. */
async function hostDirectory(base: string): Promise<string> {
  const dir = path.join(base, "shared");
  await mkdir(path.join(dir, "out"), { recursive: true });
  await writeFile(path.join(dir, "config"), "original\n");
  return dir;
}

describe("read-only paths in the network-only scope", () => {
  it("stay read-only where the host tree would show them writable, with a writable path inside still writable", async () => {
    const scopes: Omit<LocalProcessSandboxOptions, "workspaceDir">[] = [
      { networkScope: "deny" },
      { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"] },
    ];
    for (const scope of scopes) {
      const base = tempDirForTest("pc-netonly-ro-", { base: "/var/tmp" });
      const ws = path.join(base, "ws");
      await mkdir(ws);
      const dir = await hostDirectory(base);
      const extraPaths = [
        { path: dir, access: "ro" as const },
        { path: path.join(dir, "out"), access: "rw" as const },
      ];
      const result = await runShellInSandbox(attack(dir), { workspaceDir: ws, ...scope, extraPaths });
      expect(result.stdout, `${scope.networkScope}: ${result.stderr}`).toBe("refused\nrefused\nwritten\n");
      expect(await readFile(path.join(dir, "config"), "utf8")).toBe("original\n");
      expect((await readdir(dir)).sort()).toEqual(["config", "out"]);
    }
  }, 60_000);

  it("the CLI's --ro with --host-fs keeps the path read-only", async () => {
    const base = tempDirForTest("pc-netonly-ro-", { base: "/var/tmp" });
    const ws = path.join(base, "ws");
    await mkdir(ws);
    const dir = await hostDirectory(base);
    const result = await exec(process.execPath, [
      ...[bin, "--host-fs", "--ro", dir, "--rw", path.join(dir, "out"), "--workspace", ws],
      ...["--", "sh", "-c", attack(dir)],
    ]);
    expect(result.stdout, result.stderr).toBe("refused\nrefused\nwritten\n");
    expect(await readFile(path.join(dir, "config"), "utf8")).toBe("original\n");
  }, 60_000);
});
