import { chmod, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { cleanupAll, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/** Writes a file beside itself and one in the workspace (`$1`); a refused write leaves the shell's message and status 1. */
const WRITER = `#!/bin/sh
status=0
echo beside > "$(dirname "$0")/beside.txt" || status=1
echo in-ws > "$1/in-ws.txt" || status=1
exit $status
`;

const SCOPES: Record<string, Omit<LocalProcessSandboxOptions, "workspaceDir">> = {
  workspace: { filesystemScope: "workspace" },
  "network-only": { networkScope: "deny" },
};

/** A workspace (its name has a space) holding the writer at `relativeDir`. */
async function workspaceWithWriter(relativeDir: string): Promise<{ ws: string; writer: string }> {
  const ws = path.join(await scratchDir(), "my ws");
  const dir = path.join(ws, relativeDir);
  await mkdir(dir, { recursive: true });
  const writer = path.join(dir, "writer.sh");
  await writeFile(writer, WRITER);
  await chmod(writer, 0o755);
  return { ws, writer };
}

function runWriter(writer: string, ws: string, sandbox: Omit<LocalProcessSandboxOptions, "workspaceDir">) {
  return runChildProcess("executable-in-workspace", writer, [ws], {
    cwd: ws,
    env: {},
    timeoutSec: 20,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ws, ...sandbox },
  });
}

describe.each(Object.entries(SCOPES))(
  "an executable inside the workspace (%s scope, real bwrap)",
  (_, scope) => {
    it.each([
      ["at the workspace root", "."],
      ["in a subdirectory", "bin"],
    ])("leaves the workspace writable when it lives %s", async (_where, relativeDir) => {
      const { ws, writer } = await workspaceWithWriter(relativeDir);
      const result = await runWriter(writer, ws, scope);
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      await expect(readFile(path.join(path.dirname(writer), "beside.txt"), "utf8")).resolves.toBe("beside\n");
      await expect(readFile(path.join(ws, "in-ws.txt"), "utf8")).resolves.toBe("in-ws\n");
    });

    // The executable is used as spelt; its directory must be judged normalized, or `//ws/bin` is "outside" `/ws`.
    it.each([
      ["a doubled slash", (writer: string) => `/${writer}`],
      ["a dot segment", (writer: string) => path.join(path.dirname(writer), ".", path.basename(writer))],
      ["a parent segment", (writer: string) => `${path.dirname(writer)}/../bin/${path.basename(writer)}`],
    ])("leaves it writable when the executable is spelt with %s", async (_spelling, spell) => {
      const { ws, writer } = await workspaceWithWriter("bin");
      const result = await runWriter(spell(writer), ws, scope);
      expect(result.stderr).toBe("");
      await expect(readFile(path.join(ws, "bin", "beside.txt"), "utf8")).resolves.toBe("beside\n");
      await expect(readFile(path.join(ws, "in-ws.txt"), "utf8")).resolves.toBe("in-ws\n");
    });

    it("leaves it writable when the workspace is a package (its package root is the workspace)", async () => {
      const { ws, writer } = await workspaceWithWriter("scripts");
      await writeFile(path.join(ws, "package.json"), "{}\n");
      const result = await runWriter(writer, ws, scope);
      expect(result.stderr).toBe("");
      await expect(readFile(path.join(ws, "in-ws.txt"), "utf8")).resolves.toBe("in-ws\n");
    });

    it("leaves it writable when the workspace is reached through a symlink", async () => {
      const { ws } = await workspaceWithWriter("bin");
      // The link outside /tmp, which the network-only scope masks: its binds use the real paths,
      // so the executable's directory is judged by the spelling bwrap binds, not the one asked for.
      const cache = path.join(packageDir, "node_modules", ".cache");
      await mkdir(cache, { recursive: true });
      const linked = path.join(tempDirForTest("pc-exews-link-", { base: cache }), "linked ws");
      await symlink(ws, linked);
      const result = await runWriter(path.join(linked, "bin", "writer.sh"), linked, scope);
      expect(result.stderr).toBe("");
      await expect(readFile(path.join(ws, "bin", "beside.txt"), "utf8")).resolves.toBe("beside\n");
      await expect(readFile(path.join(ws, "in-ws.txt"), "utf8")).resolves.toBe("in-ws\n");
    });

    // A stray package.json above the workspace made that directory the program's package root,
    // bound read-only with everything beside the workspace (under /tmp, masked in the network-only scope).
    it("shows nothing beside the workspace when a package root lies above it", async () => {
      const { ws } = await workspaceWithWriter(".");
      const above = path.dirname(ws);
      await writeFile(path.join(above, "package.json"), "{}\n");
      await writeFile(path.join(above, "secret.txt"), "beside the workspace\n");
      const peek = path.join(ws, "peek.sh");
      await writeFile(peek, '#!/bin/sh\ncat "$1/../secret.txt"\n');
      await chmod(peek, 0o755);
      const result = await runWriter(peek, ws, scope);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("No such file or directory");
      expect(result.exitCode).toBe(1);
    });

    // A link planted in the workspace through /proc/self/cwd names, for the builder, its own
    // working directory (a server's, beside its secrets); inside the sandbox, the program's own:
    // the workspace, where the planted script waits. The builder bound the server's package root.
    it("shows nothing of the builder's working directory through a /proc link", async () => {
      const { ws } = await workspaceWithWriter(".");
      const server = path.join(path.dirname(ws), "server");
      await mkdir(path.join(server, "bin"), { recursive: true });
      await writeFile(path.join(server, "package.json"), "{}\n");
      await writeFile(path.join(server, ".env"), "API_KEY=host secret\n");
      await writeFile(path.join(server, "bin", "start"), "#!/bin/sh\necho host tool\n", { mode: 0o755 });
      await mkdir(path.join(ws, "bin"));
      await writeFile(path.join(ws, "bin", "start"), '#!/bin/sh\ncat "$1/../server/.env"\n', { mode: 0o755 });
      await mkdir(path.join(ws, "node_modules", ".bin"), { recursive: true });
      const tool = path.join(ws, "node_modules", ".bin", "tool");
      await symlink("/proc/self/cwd/bin/start", tool);
      const before = process.cwd();
      process.chdir(server);
      const result = await runWriter(tool, ws, scope).finally(() => process.chdir(before));
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("No such file or directory");
      expect(result.exitCode).toBe(1);
    });

    // Under /tmp too, which the network-only scope masks: bound back read-only, as in the workspace scope.
    it("keeps its directory read-only when it lives outside the workspace", async () => {
      const { ws } = await workspaceWithWriter(".");
      const { writer } = await workspaceWithWriter("tool");
      const result = await runWriter(writer, ws, scope);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(
        `cannot create ${path.dirname(writer)}/beside.txt: Read-only file system`,
      );
      await expect(readFile(path.join(ws, "in-ws.txt"), "utf8")).resolves.toBe("in-ws\n");
    });

    // The workspace lives under /tmp, which the network-only scope masks and binds back with each path's access.
    it("keeps a read-only extra path that holds it read-only", async () => {
      const { ws, writer } = await workspaceWithWriter("tools");
      const tools = path.dirname(writer);
      const result = await runWriter(writer, ws, { ...scope, extraPaths: [{ path: tools, access: "ro" }] });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(`cannot create ${tools}/beside.txt: Read-only file system`);
      await expect(readFile(path.join(ws, "in-ws.txt"), "utf8")).resolves.toBe("in-ws\n");
    });
  },
);
