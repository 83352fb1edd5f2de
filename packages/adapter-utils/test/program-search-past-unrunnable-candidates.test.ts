import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { spawnTarget } from "./attack-support.js";
import { cleanupAll, onCleanup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * execvp goes on past a `PATH` candidate whose execve fails with `ENOENT` or `EACCES` (and
 * ends with `EACCES` if any did), also when that error is its interpreter's: a `#!` line
 * naming a missing or non-executable file, a dynamic ELF whose loader is missing. The
 * native bridge calls execvp and the exec shim (no bridge) has its own loop by glibc's rules;
 * the Node bridge resolves the name itself (execvp-path.ts) and stopped at the first
 * executable file, so it failed a program execvp runs.
 */

/** A copy of `/bin/true` whose loader (`PT_INTERP`) names a file that does not exist. */
async function elfWithMissingLoader(file: string): Promise<void> {
  const binary = await readFile("/bin/true");
  const at = binary.indexOf("/ld-");
  if (at === -1) throw new Error("/bin/true names no loader: the fixture needs a dynamic one");
  binary.write("/no-", at, "latin1");
  await writeFile(file, binary, { mode: 0o755 });
}

async function workspaceWithCandidates(ws: string): Promise<Record<string, string>> {
  const dirs = Object.fromEntries(["miss", "deny", "elf", "ok"].map((name) => [name, path.join(ws, name)]));
  for (const dir of Object.values(dirs)) await mkdir(dir);
  await writeFile(path.join(ws, "plain-file"), "not a program\n");
  await writeFile(path.join(dirs.miss!, "tool"), "#!/nonexistent/interpreter\n", { mode: 0o755 });
  await writeFile(path.join(dirs.deny!, "tool"), `#! ${path.join(ws, "plain-file")} -x\n`, { mode: 0o755 });
  await elfWithMissingLoader(path.join(dirs.elf!, "tool"));
  await writeFile(path.join(dirs.ok!, "tool"), "#!/bin/sh\necho ok-tool\n");
  await chmod(path.join(dirs.ok!, "tool"), 0o755);
  return dirs;
}

/**
 * Who starts the program: the exec shim, which searches `PATH`, behind either bridge
 * (allowlist; each execs the shim, which checks the binds first) or alone (deny: no bridge).
 */
const LAUNCHERS: [string, LocalProcessSandboxOptions["networkBridge"] | null][] = [
  ["native bridge", "native"],
  ["Node bridge", "node"],
  ["exec shim", null],
];

describe("a bare program name is searched past candidates execve refuses", () => {
  it.each(LAUNCHERS)(
    "%s: runs the later candidate, and fails 127 or 126 as execvp does",
    async (_label, networkBridge) => {
      const ws = scratchDir("pc-sbx-execvp-");
      const dirs = await workspaceWithCandidates(ws);
      const network: Partial<LocalProcessSandboxOptions> =
        networkBridge === null
          ? { networkScope: "deny" }
          : { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"], networkBridge };
      const run = async (...names: string[]) => {
        // A target serves one spawn (the native bridge's courier is the run's).
        const target = await buildLocalProcessSandboxSpawnTarget({
          executable: "tool",
          args: [],
          cwd: ws,
          options: { workspaceDir: ws, filesystemScope: "workspace", ...network },
        });
        onCleanup(() => target.cleanup?.() ?? Promise.resolve());
        const result = await spawnTarget(target, { PATH: names.map((name) => dirs[name]).join(":") });
        return { code: result.code, stdout: result.stdout, stderr: result.stderr };
      };
      const cannot = (why: string) => `paperclip-sandbox: cannot start tool: ${why}\n`;
      expect(await run("miss", "deny", "elf", "ok")).toEqual({ code: 0, stdout: "ok-tool\n", stderr: "" });
      expect(await run("miss", "elf")).toEqual({
        code: 127,
        stdout: "",
        stderr: cannot("No such file or directory"),
      });
      expect(await run("miss", "deny", "elf")).toEqual({
        code: 126,
        stdout: "",
        stderr: cannot("Permission denied"),
      });
    },
    60_000,
  );
});
