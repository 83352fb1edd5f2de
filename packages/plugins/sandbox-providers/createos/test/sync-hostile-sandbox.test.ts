/**
 * A sync out from a sandbox that is hostile: its agent is root there, so the sandbox's `tar` and
 * `wc` are whatever it wants them to be. Here they are scripts first on the emulator's `PATH`
 * that serve crafted archives and lie about sizes; each test asserts that the host keeps its files,
 * its modes and its room, and that nothing of the sync is left behind.
 */

import { execFileSync } from "node:child_process";
import { chmod, lstat, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { caught } from "@paperclipai/errors/testing";
import type { PluginEnvironmentLease, PluginSyncFileMapping } from "@paperclipai/plugin-sdk";
import { tempDirForFile, tempDirForTest } from "@paperclipai/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startTestEmulator } from "./support/emulator-fixture.js";
import type { PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";
import { gnuLongEntry, paxHeader, tarArchive, tarEntry } from "./support/tar-entries.js";
import { startTricklingFilesProxy } from "./support/trickling-files-proxy.js";

// Before the afterAll below, so they are removed after the emulator closed (hooks run in reverse).
const tools = tempDirForFile("createos-hostile-tools-");
const host = tempDirForFile("createos-hostile-host-");
const pathBefore = process.env.PATH;

// The sandbox's own `tar` and `wc` (the emulator runs its commands with this process's `PATH`):
// with a planted answer they serve it, without one they are the real tools.
const HOSTILE_TAR = `#!/bin/sh
tools=$(dirname "$0")
if [ -e "$tools/silent" ]; then exit 0; fi
if [ -e "$tools/archive" ]; then cat "$tools/archive" > "$3"; exit 0; fi
if [ -e "$tools/plant" ]; then ln -s "$(cat "$tools/plant")" "$3"; exit 0; fi
exec /usr/bin/tar "$@"
`;
const HOSTILE_WC = `#!/bin/sh
tools=$(dirname "$0")
if [ -e "$tools/size" ]; then cat "$tools/size"; exit 0; fi
exec /usr/bin/wc "$@"
`;

let emulator: CreateosEmulator;
let t: PluginUnderTest;
let lease: PluginEnvironmentLease;

beforeAll(async () => {
  await writeFile(join(tools, "tar"), HOSTILE_TAR, { mode: 0o755 });
  await writeFile(join(tools, "wc"), HOSTILE_WC, { mode: 0o755 });
  process.env.PATH = `${tools}:${pathBefore ?? "/usr/bin:/bin"}`;
  emulator = await startTestEmulator();
  t = await pluginUnderTest(emulator);
  lease = await t.harness.acquireLease({ ...t.base, runId: "hostile-sync" });
  await mkdir(join(workspaceDir(), "tree"), { recursive: true });
  await writeFile(join(workspaceDir(), "tree/honest.txt"), "honest\n");
});

afterAll(async () => {
  // First, and whatever the closing does: the later files of this worker run tar and wc too.
  if (pathBefore === undefined) delete process.env.PATH;
  else process.env.PATH = pathBefore;
  await emulator.close();
});

afterEach(async () => {
  for (const name of ["archive", "plant", "size", "silent"]) await rm(join(tools, name), { force: true });
});

function workspaceDir(): string {
  return emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!.workspaceDir;
}

/** The sandbox's next `tar -c` writes `bytes` instead of the tree. */
async function serveArchive(bytes: Buffer): Promise<void> {
  await writeFile(join(tools, "archive"), bytes);
}

/** A directory of its own on the host, with a file beside the target that nothing may touch. */
async function hostScene(): Promise<{ dir: string; target: string; victim: string }> {
  const dir = tempDirForTest("createos-hostile-scene-", { base: host });
  const victim = join(dir, "victim");
  await writeFile(victim, "host secret\n", { mode: 0o600 });
  return { dir, target: join(dir, "target"), victim };
}

function syncOut(file: Omit<PluginSyncFileMapping, "sourcePath"> & { sourcePath?: string }) {
  return t.sync.out({
    ...t.lease(lease),
    operations: [{ operationId: "hostile", files: [{ sourcePath: "/paperclip-workspace/tree", ...file }] }],
  });
}

/** What a failed sync out must leave: the victim as it was, no target, no staging or temp file. */
async function expectUntouched(scene: { dir: string; victim: string }): Promise<void> {
  expect(await readFile(scene.victim, "utf8")).toBe("host secret\n");
  const victim = await stat(scene.victim);
  expect({ links: victim.nlink, mode: victim.mode & 0o7777 }).toEqual({ links: 1, mode: 0o600 });
  expect(await readdir(scene.dir)).toEqual(["victim"]);
  const sandbox = emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!;
  expect((await readdir(sandbox.tmpDir)).filter((name) => name.startsWith("paperclip-sync-"))).toEqual([]);
}

describe("a sandbox whose tar serves a crafted archive", () => {
  it("refuses a compressed archive, which its own pack never writes, before reading an entry", async () => {
    const scene = await hostScene();
    await serveArchive(gzipSync(tarArchive(tarEntry({ path: "inside.txt" }, "zipped"))));
    const error = await caught(
      syncOut({ targetPath: scene.target, kind: "directory" }),
      "ERR_CREATEOS_SYNC_ARCHIVE_INVALID",
    );
    expect(error.details).toEqual({ reason: "malformed", tarCode: "TAR_BAD_ARCHIVE" });
    await expectUntouched(scene);
  });

  it("never plants a world-writable file or directory, whatever the host's umask", async () => {
    const scene = await hostScene();
    await serveArchive(
      tarArchive(
        tarEntry({ path: "open.sh", mode: 0o777 }, "#!/bin/sh\n"),
        tarEntry({ path: "open", type: "Directory", mode: 0o777 }),
        tarEntry({ path: "drop", type: "Directory", mode: 0o1777 }),
        tarEntry({ path: "open/inner.txt", mode: 0o666 }, "x"),
      ),
    );
    // A worker started with a permissive umask (0 is common in containers) keeps tar's modes whole.
    const umask = process.umask(0);
    onTestFinished(() => void process.umask(umask));
    await syncOut({ targetPath: scene.target, kind: "directory" });
    const modes: Record<string, string> = {};
    for (const path of ["open.sh", "open", "drop", "open/inner.txt"])
      modes[path] = ((await stat(join(scene.target, path))).mode & 0o7777).toString(8);
    expect(modes).toEqual({ "open.sh": "775", open: "775", drop: "1775", "open/inner.txt": "664" });
  });

  it("leaves every directory writable and searchable by the host's user, who must remove it", async () => {
    const scene = await hostScene();
    await serveArchive(
      tarArchive(
        tarEntry({ path: "locked", type: "Directory", mode: 0o500 }),
        tarEntry({ path: "locked/inner", type: "Directory", mode: 0o000 }),
        tarEntry({ path: "locked/inner/x.txt", mode: 0o400 }, "x"),
        tarEntry({ path: "locked/inner", type: "Directory", mode: 0o000 }),
      ),
    );
    await syncOut({ targetPath: scene.target, kind: "directory" });
    const modes: Record<string, string> = {};
    for (const path of ["locked", "locked/inner", "locked/inner/x.txt"])
      modes[path] = ((await stat(join(scene.target, path))).mode & 0o7777).toString(8);
    // A worker that is not root could not otherwise remove the tree, nor the staging directory
    // of a sync refused half-way, nor the old tree the next sync out replaces.
    expect(modes).toEqual({ locked: "700", "locked/inner": "700", "locked/inner/x.txt": "400" });
  });

  it.each([
    ["a pax path that climbs out", [paxHeader({ path: "../escaped" }), tarEntry({ path: "fine" }, "x")]],
    [
      "a pax linkpath that points at the host",
      [paxHeader({ linkpath: "/etc" }), tarEntry({ path: "etc", type: "SymbolicLink", linkpath: "ok" })],
    ],
    [
      "a GNU long name that climbs out",
      [gnuLongEntry("NextFileHasLongPath", `../${"n".repeat(120)}`), tarEntry({ path: "short" }, "x")],
    ],
    [
      "a GNU long link that points at the host",
      [
        gnuLongEntry("NextFileHasLongLinkpath", `/${"l".repeat(120)}`),
        tarEntry({ path: "long", type: "SymbolicLink", linkpath: "ok" }),
      ],
    ],
    ["a GNU dump directory", [tarEntry({ path: "dump", type: "GNUDumpDir" }, "")]],
    [
      "a hard link that reaches a host file through a chain of links, its way then replaced",
      [
        tarEntry({ path: "here", type: "SymbolicLink", linkpath: "." }),
        tarEntry({ path: "up", type: "SymbolicLink", linkpath: "here/.." }),
        tarEntry({ path: "stolen", type: "Link", linkpath: "up/victim" }),
        tarEntry({ path: "up" }, "now a plain file"),
      ],
    ],
    [
      "a file written through a link that a later entry replaces",
      [
        tarEntry({ path: "here", type: "SymbolicLink", linkpath: "." }),
        tarEntry({ path: "up", type: "SymbolicLink", linkpath: "here/.." }),
        tarEntry({ path: "up/victim" }, "overwritten"),
        tarEntry({ path: "up", type: "Directory", mode: 0o755 }),
      ],
    ],
    [
      "a hard link to a directory",
      [
        tarEntry({ path: "d", type: "Directory", mode: 0o755 }),
        tarEntry({ path: "h", type: "Link", linkpath: "d" }),
      ],
    ],
    [
      "a link that replaces a directory already filled",
      [
        tarEntry({ path: "d", type: "Directory", mode: 0o755 }),
        tarEntry({ path: "d/x" }, "x"),
        tarEntry({ path: "d", type: "SymbolicLink", linkpath: "x" }),
      ],
    ],
    ["a file named as the root", [tarEntry({ path: "./" }, "x")]],
    ["an entry below a file", [tarEntry({ path: "f" }, "x"), tarEntry({ path: "f/x" }, "y")]],
    [
      "a path longer than the host allows",
      [paxHeader({ path: `${"deep/".repeat(900)}x` }), tarEntry({ path: "x" }, "x")],
    ],
  ])("refuses %s with a coded error and keeps the host as it was", async (_name, entries) => {
    const scene = await hostScene();
    await serveArchive(tarArchive(...entries));
    const error = await caught(syncOut({ targetPath: scene.target, kind: "directory" }));
    expect(error.code).toMatch(/^ERR_CREATEOS_SYNC_ARCHIVE_(ENTRY|INVALID)$/);
    await expectUntouched(scene);
  });

  it.each([
    [
      "a global pax path",
      [paxHeader({ path: "../../global" }, true), tarEntry({ path: "fine" }, "x")],
      ["fine"],
    ],
    [
      "a GNU sparse file",
      [tarEntry({ path: "sparse", type: "SparseFile" }, "x"), tarEntry({ path: "fine" }, "x")],
      ["fine"],
    ],
    ["a symbolic link named as the root", [tarEntry({ path: ".", type: "SymbolicLink", linkpath: "x" })], []],
  ])(
    "ignores %s, which tar does not apply, and writes only inside the target",
    async (_name, entries, kept) => {
      const scene = await hostScene();
      await serveArchive(tarArchive(...entries));
      await syncOut({ targetPath: scene.target, kind: "directory" });
      expect(await readdir(scene.target)).toEqual(kept);
      expect((await lstat(scene.target)).isDirectory()).toBe(true);
      expect((await readdir(scene.dir)).sort()).toEqual(["target", "victim"]);
    },
  );

  it("keeps names with newlines or invalid UTF-8 and far-off mtimes inside the target", async () => {
    const scene = await hostScene();
    const invalid = Buffer.concat([Buffer.from("bad-"), Buffer.from([0xff, 0xfe]), Buffer.from(".txt")]);
    const header = tarEntry({ path: "placeholder-name.txt" }, "x");
    invalid.copy(header, 0);
    header.fill(0, invalid.length, 100);
    // The checksum covers the name: recompute it as tar does (the field read as spaces).
    const sum = [...header.subarray(0, 512)].reduce(
      (total, byte, index) => total + (index >= 148 && index < 156 ? 32 : byte),
      0,
    );
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
    await serveArchive(
      tarArchive(
        header,
        tarEntry({ path: "line\nbreak.txt" }, "y"),
        tarEntry({ path: "future.txt", mtime: new Date(8.64e15) }, "z"),
      ),
    );
    await syncOut({ targetPath: scene.target, kind: "directory" });
    expect((await readdir(scene.target)).sort()).toEqual([
      "bad-\ufffd\ufffd.txt",
      "future.txt",
      "line\nbreak.txt",
    ]);
    expect(await readdir(scene.dir)).toEqual(["target", "victim"].sort());
  });
});

describe("a sandbox whose tools lie", () => {
  it("fails a size larger than the archive as incomplete, after one more read", async () => {
    const scene = await hostScene();
    await writeFile(join(tools, "size"), "999999999999999\n");
    const error = await caught(
      syncOut({ targetPath: scene.target, kind: "directory" }),
      "ERR_CREATEOS_SYNC_ARCHIVE_INVALID",
    );
    expect(error.details).toMatchObject({ reason: "incomplete", expectedBytes: 999_999_999_999_999 });
    await expectUntouched(scene);
  });

  it.each([
    ["a negative size", "-1"],
    ["text", "12 bytes"],
    ["nothing", ""],
    ["a size past 2^53", "9".repeat(20)],
  ])("refuses %s as the archive's size", async (_name, size) => {
    const scene = await hostScene();
    await writeFile(join(tools, "size"), size);
    const error = await caught(syncOut({ targetPath: scene.target, kind: "directory" }));
    expect(error.code).toBe("ERR_CREATEOS_INVALID_RESPONSE");
    await expectUntouched(scene);
  });

  it("fails a pack that wrote nothing at its size step, with nothing left", async () => {
    const scene = await hostScene();
    await writeFile(join(tools, "silent"), "");
    const error = await caught(syncOut({ targetPath: scene.target, kind: "directory" }));
    expect(error.code).toBe("ERR_CREATEOS_WORKSPACE_COMMAND");
    await expectUntouched(scene);
  });

  it.each([
    ["a link to /dev/zero", "/dev/zero"],
    ["a link to a directory", "/"],
  ])("survives the archive being %s at download time", async (_name, planted) => {
    const scene = await hostScene();
    await writeFile(join(tools, "plant"), planted);
    await writeFile(join(tools, "size"), "10240\n");
    const error = await caught(syncOut({ targetPath: scene.target, kind: "directory" }));
    expect(error.code).toBe("ERR_CREATEOS_HTTP_STATUS");
    await expectUntouched(scene);
  });
});

describe("a download that never ends", () => {
  it("is cut at the host's deadline, its connection closed and nothing of it left", async () => {
    const proxy = await startTricklingFilesProxy(emulator);
    onTestFinished(() => proxy.close());
    // The host's limit for the acquire and the sync: 2.5 s, of which the plugin keeps 0.5 s.
    const slow = await pluginUnderTest(proxy, {}, "env-trickle", {
      hostLimits: { defaultRpcTimeoutMs: 2_500, marginMs: 500 },
    });
    const own = await slow.harness.acquireLease({ ...slow.base, runId: "trickle" });
    onTestFinished(async () => {
      await slow.harness.destroyLease({
        ...slow.base,
        providerLeaseId: own.providerLeaseId,
        leaseMetadata: own.metadata!,
      });
    });
    const sandbox = emulator.sandboxes().find((s) => s.id === own.providerLeaseId)!;
    await mkdir(join(sandbox.workspaceDir, "tree"));
    await writeFile(join(sandbox.workspaceDir, "tree/a.txt"), "a");
    const scene = await hostScene();
    const syncing = slow.sync.out({
      ...slow.lease(own),
      operations: [
        {
          operationId: "trickle",
          files: [{ sourcePath: "/paperclip-workspace/tree", targetPath: scene.target, kind: "directory" }],
        },
      ],
    });
    const error = await caught(syncing, "ERR_CREATEOS_HOST_DEADLINE");
    expect(error.details).toMatchObject({ operation: "sync out" });
    await proxy.downloadsClosed();
    expect(await readdir(scene.dir)).toEqual(["victim"]);
  });
});

describe("a single file synced out onto what the host has there", () => {
  it("replaces a link at the target instead of writing through it, and leaves no temp file", async () => {
    const scene = await hostScene();
    await symlink(scene.victim, scene.target);
    await syncOut({
      sourcePath: "/paperclip-workspace/tree/honest.txt",
      targetPath: scene.target,
      kind: "file",
    });
    expect((await lstat(scene.target)).isFile()).toBe(true);
    expect(await readFile(scene.target, "utf8")).toBe("honest\n");
    expect(await readFile(scene.victim, "utf8")).toBe("host secret\n");
    expect((await readdir(scene.dir)).sort()).toEqual(["target", "victim"]);
  });

  it("replaces a FIFO at the target without opening it", async () => {
    const scene = await hostScene();
    mkfifo(scene.target);
    await syncOut({
      sourcePath: "/paperclip-workspace/tree/honest.txt",
      targetPath: scene.target,
      kind: "file",
    });
    expect(await readFile(scene.target, "utf8")).toBe("honest\n");
    expect((await readdir(scene.dir)).sort()).toEqual(["target", "victim"]);
  });

  it("leaves a directory at the target as it was, with no temp file beside it", async () => {
    const scene = await hostScene();
    await mkdir(scene.target);
    await writeFile(join(scene.target, "kept"), "kept");
    await chmod(scene.target, 0o755);
    // The caller named a directory as a file's target: the host's own error, nothing replaced.
    await expect(
      syncOut({ sourcePath: "/paperclip-workspace/tree/honest.txt", targetPath: scene.target, kind: "file" }),
    ).rejects.toMatchObject({ code: "EISDIR" });
    expect(await readdir(scene.target)).toEqual(["kept"]);
    expect((await readdir(scene.dir)).sort()).toEqual(["target", "victim"]);
  });
});

function mkfifo(path: string): void {
  execFileSync("mkfifo", [path]);
}
