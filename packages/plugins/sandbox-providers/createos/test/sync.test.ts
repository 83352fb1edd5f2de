import { chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { caught } from "@paperclipai/errors/testing";
import type { PluginEnvironmentLease } from "@paperclipai/plugin-sdk";
import { tempDirForFile } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNNING_COMMAND_DEADLINE_MS } from "./support/command-deadline.js";
import { startTestEmulator } from "./support/emulator-fixture.js";
import type { PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

let emulator: CreateosEmulator;
let t: PluginUnderTest;
let lease: PluginEnvironmentLease;
// Before the afterAll below, so it is removed after the emulator closed (hooks run in reverse).
const host = tempDirForFile("createos-sync-test-");

function workspaceDir(): string {
  return emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!.workspaceDir;
}

beforeAll(async () => {
  emulator = await startTestEmulator();
  t = await pluginUnderTest(emulator);
  lease = await t.harness.acquireLease({ ...t.base, runId: "sync" });
});

afterAll(async () => {
  await emulator.close();
});

describe("sync in", () => {
  it("uploads files with their mode and directory trees with excludes and links, then runs the commands in order", async () => {
    const src = join(host, "src");
    await mkdir(join(src, "sub/node_modules"), { recursive: true });
    await writeFile(join(src, "a.txt"), "alpha\n");
    await writeFile(join(src, "sub/b.bin"), Buffer.from([0, 1, 2, 255]));
    await writeFile(join(src, "sub/debug.log"), "noise");
    await writeFile(join(src, "sub/node_modules/x.js"), "x");
    await symlink("a.txt", join(src, "link"));
    await writeFile(join(host, "secret.env"), "TOKEN=1\n");

    const result = await t.sync.in({
      ...t.lease(lease),
      operations: [
        {
          operationId: "op-1",
          files: [
            {
              sourcePath: join(host, "secret.env"),
              targetPath: "/paperclip-workspace/conf/secret.env",
              kind: "file",
              mode: 0o600,
            },
            {
              sourcePath: src,
              targetPath: "/paperclip-workspace/tree",
              kind: "directory",
              exclude: ["*.log", "node_modules"],
            },
          ],
          postUploadCommands: [
            { command: "cat a.txt > ../order.txt", cwd: "/paperclip-workspace/tree" },
            { command: "echo second >> /paperclip-workspace/order.txt" },
          ],
        },
      ],
    });
    expect(result.operations).toEqual([
      { operationId: "op-1", filesTransferred: 4, bytesTransferred: expect.any(Number) },
    ]);
    const ws = workspaceDir();
    expect(await readFile(join(ws, "conf/secret.env"), "utf8")).toBe("TOKEN=1\n");
    expect((await stat(join(ws, "conf/secret.env"))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(ws, "tree/sub/b.bin"))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(await readlink(join(ws, "tree/link"))).toBe("a.txt");
    await expect(stat(join(ws, "tree/sub/debug.log"))).rejects.toThrow();
    await expect(stat(join(ws, "tree/sub/node_modules"))).rejects.toThrow();
    expect(await readFile(join(ws, "order.txt"), "utf8")).toBe("alpha\nsecond\n");
  });

  it("stops at the first failing post-upload command", async () => {
    const error = await caught(
      t.sync.in({
        ...t.lease(lease),
        operations: [
          {
            operationId: "op-2",
            files: [],
            postUploadCommands: [{ command: "exit 7" }, { command: "touch /paperclip-workspace/never" }],
          },
        ],
      }),
    );
    expect(error.message).toBe("CreateOS transfer command failed.");
    expect(error.code).toBe("ERR_CREATEOS_SYNC_COMMAND_FAILED");
    expect(error.details).toMatchObject({ operationId: "op-2", index: 0, exitCode: 7, timedOut: false });
    await expect(stat(join(workspaceDir(), "never"))).rejects.toThrow();
  });

  it("bounds a post-upload command without its own timeoutMs by the config's timeoutMs", async () => {
    const bounded = await pluginUnderTest(emulator, { timeoutMs: RUNNING_COMMAND_DEADLINE_MS });
    const own = await bounded.harness.acquireLease({ ...bounded.base, runId: "sync-timeout" });
    const error = await caught(
      bounded.sync.in({
        ...bounded.lease(own),
        operations: [{ operationId: "op-t", files: [], postUploadCommands: [{ command: "exec sleep 30" }] }],
      }),
    );
    expect(error.code).toBe("ERR_CREATEOS_SYNC_COMMAND_FAILED");
    expect(error.details).toMatchObject({ operationId: "op-t", index: 0, exitCode: null, timedOut: true });
    await bounded.harness.destroyLease({
      ...bounded.base,
      providerLeaseId: own.providerLeaseId,
      leaseMetadata: own.metadata!,
    });
  });

  it("refuses paths outside the workspace before moving a byte", async () => {
    const before = emulator.requests().length;
    for (const targetPath of ["/etc/passwd", "/paperclip-workspace/../tmp/x", "relative"]) {
      const error = await caught(
        t.sync.in({
          ...t.lease(lease),
          operations: [
            {
              operationId: "op-3",
              files: [{ sourcePath: join(host, "secret.env"), targetPath, kind: "file" }],
            },
          ],
        }),
      );
      expect(error.message).toBe("CreateOS sync path is not an absolute path inside the sandbox workspace.");
    }
    const cwdError = await caught(
      t.sync.in({
        ...t.lease(lease),
        operations: [
          { operationId: "op-4", files: [], postUploadCommands: [{ command: "true", cwd: "/etc" }] },
        ],
      }),
    );
    expect((cwdError as { code?: string }).code).toBe("ERR_CREATEOS_SYNC_PATH");
    expect(emulator.requests().length).toBe(before);
  });

  it("reports a failing workspace step with its exit code", async () => {
    await writeFile(join(workspaceDir(), "plainfile"), "x");
    const error = await caught(
      t.sync.in({
        ...t.lease(lease),
        operations: [
          {
            operationId: "op-5",
            files: [
              {
                sourcePath: join(host, "secret.env"),
                targetPath: "/paperclip-workspace/plainfile/x",
                kind: "file",
              },
            ],
          },
        ],
      }),
    );
    expect(error.message).toBe("CreateOS workspace command failed (exit 1).");
    expect((error as { code?: string }).code).toBe("ERR_CREATEOS_WORKSPACE_COMMAND");
  });
});

describe("sync out", () => {
  it("downloads a file atomically with its mode, and a tree with links kept inside", async () => {
    const ws = workspaceDir();
    await mkdir(join(ws, "out/deep"), { recursive: true });
    await writeFile(join(ws, "out/deep/r.txt"), "result\n");
    await writeFile(join(ws, "out/skip.tmp"), "no");
    await symlink("deep/r.txt", join(ws, "out/alias"));
    await writeFile(join(ws, "report.json"), '{"ok":true}');
    const target = join(host, "back");
    await mkdir(target, { recursive: true });
    await writeFile(join(target, "stale.txt"), "old");

    const result = await t.sync.out({
      ...t.lease(lease),
      operations: [
        {
          operationId: "out-1",
          files: [
            {
              sourcePath: "/paperclip-workspace/report.json",
              targetPath: join(host, "report.json"),
              kind: "file",
              mode: 0o640,
            },
            {
              sourcePath: "/paperclip-workspace/out",
              targetPath: target,
              kind: "directory",
              exclude: ["*.tmp"],
              mode: 0o750,
            },
          ],
        },
      ],
    });
    expect(result.operations[0]).toMatchObject({ operationId: "out-1", filesTransferred: 3 });
    expect(await readFile(join(host, "report.json"), "utf8")).toBe('{"ok":true}');
    expect((await stat(join(host, "report.json"))).mode & 0o777).toBe(0o640);
    expect(await readFile(join(target, "deep/r.txt"), "utf8")).toBe("result\n");
    expect((await lstat(join(target, "alias"))).isSymbolicLink()).toBe(true);
    expect((await stat(target)).mode & 0o777).toBe(0o750);
    await expect(stat(join(target, "stale.txt"))).rejects.toThrow();
    await expect(stat(join(target, "skip.tmp"))).rejects.toThrow();
  });

  it("rejects an archive with a link that escapes, before extracting anything", async () => {
    const ws = workspaceDir();
    await mkdir(join(ws, "evil"), { recursive: true });
    await writeFile(join(ws, "evil/fine.txt"), "fine");
    await symlink("/etc", join(ws, "evil/escape"));
    const target = join(host, "evil-target");
    const error = await caught(
      t.sync.out({
        ...t.lease(lease),
        operations: [
          {
            operationId: "out-2",
            files: [{ sourcePath: "/paperclip-workspace/evil", targetPath: target, kind: "directory" }],
          },
        ],
      }),
    );
    expect(error.message).toBe("CreateOS archive contains unsafe entries or exceeds the extraction limit.");
    await expect(stat(target)).rejects.toThrow();
  });

  it("leaves an excluded entry out before judging it: the host's runtime tree with absolute links syncs back", async () => {
    // What the host asks of every workspace restore: `.paperclip-runtime` excluded, where a
    // runner's Codex links its own binary by absolute path (`codex-home/tmp/arg0/apply_patch`).
    const ws = workspaceDir();
    await mkdir(join(ws, "restored/.paperclip-runtime/codex-home/tmp/arg0"), { recursive: true });
    await writeFile(join(ws, "restored/result.txt"), "kept\n");
    await symlink(
      "/usr/local/bin/codex",
      join(ws, "restored/.paperclip-runtime/codex-home/tmp/arg0/apply_patch"),
    );
    const target = join(host, "restored-target");
    const mapping = {
      sourcePath: "/paperclip-workspace/restored",
      targetPath: target,
      kind: "directory" as const,
    };
    const result = await t.sync.out({
      ...t.lease(lease),
      operations: [{ operationId: "out-excluded", files: [{ ...mapping, exclude: [".paperclip-runtime"] }] }],
    });
    expect(result.operations[0]).toMatchObject({ filesTransferred: 1 });
    expect(await readdir(target)).toEqual(["result.txt"]);
    // Not excluded, the same link is refused.
    const error = await caught(
      t.sync.out({ ...t.lease(lease), operations: [{ operationId: "out-included", files: [mapping] }] }),
    );
    expect(error.code).toBe("ERR_CREATEOS_SYNC_ARCHIVE_ENTRY");
  });

  it("never has the sandbox's tar read an excluded tree it can name: what is live or broken there cannot fail the pack", async () => {
    // A link loop fails `tar --dereference` wherever it is read; excluded by name, it is not read.
    const ws = workspaceDir();
    await mkdir(join(ws, "live/.paperclip-runtime/runner"), { recursive: true });
    await writeFile(join(ws, "live/result.txt"), "kept\n");
    await symlink("loop", join(ws, "live/.paperclip-runtime/runner/loop"));
    const target = join(host, "live-target");
    const mapping = {
      sourcePath: "/paperclip-workspace/live",
      targetPath: target,
      kind: "directory" as const,
      followSymlinks: true,
    };
    const result = await t.sync.out({
      ...t.lease(lease),
      operations: [{ operationId: "out-pruned", files: [{ ...mapping, exclude: [".paperclip-runtime"] }] }],
    });
    expect(result.operations[0]).toMatchObject({ filesTransferred: 1 });
    expect(await readdir(target)).toEqual(["result.txt"]);
    // Excluded by a glob, which only the host applies, the tree is read and the pack fails.
    const error = await caught(
      t.sync.out({
        ...t.lease(lease),
        operations: [{ operationId: "out-glob", files: [{ ...mapping, exclude: [".paperclip-run*"] }] }],
      }),
    );
    expect(error.code).toBe("ERR_CREATEOS_WORKSPACE_COMMAND");
  });

  it("never lets a set-user-ID or set-group-ID bit of the sandbox's files reach the host", async () => {
    const ws = workspaceDir();
    await mkdir(join(ws, "modes/shared"), { recursive: true });
    await writeFile(join(ws, "modes/tool"), "#!/bin/sh\nid\n");
    await chmod(join(ws, "modes/tool"), 0o6755);
    await chmod(join(ws, "modes/shared"), 0o2775);
    const target = join(host, "modes-target");
    await t.sync.out({
      ...t.lease(lease),
      operations: [
        {
          operationId: "out-modes",
          files: [{ sourcePath: "/paperclip-workspace/modes", targetPath: target, kind: "directory" }],
        },
      ],
    });
    for (const path of ["tool", "shared"]) {
      const { mode } = await stat(join(target, path));
      expect({ path, privileged: mode & 0o6000, ownerExecutes: (mode & 0o100) !== 0 }).toEqual({
        path,
        privileged: 0,
        ownerExecutes: true,
      });
    }
  });

  it("rejects a link whose text stays inside but whose path leaves through another link", async () => {
    const ws = workspaceDir();
    await mkdir(join(ws, "chain"), { recursive: true });
    await writeFile(join(ws, "chain/fine.txt"), "fine");
    // Each link alone reads as inside the tree; followed, `up` is the tree's parent.
    await symlink(".", join(ws, "chain/here"));
    await symlink("here/..", join(ws, "chain/up"));
    const target = join(host, "chain-target");
    const error = await caught(
      t.sync.out({
        ...t.lease(lease),
        operations: [
          {
            operationId: "out-chain",
            files: [{ sourcePath: "/paperclip-workspace/chain", targetPath: target, kind: "directory" }],
          },
        ],
      }),
      "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
    );
    expect(error.details).toEqual({ entry: "up" });
    await expect(stat(target)).rejects.toThrow();
    expect((await readdir(host)).filter((name) => name.includes("chain-target"))).toEqual([]);
  });

  it("reads an archive that arrived short once more, and fails with a coded error if it stays short", async () => {
    const ws = workspaceDir();
    await mkdir(join(ws, "short/deep"), { recursive: true });
    await writeFile(join(ws, "short/deep/r.txt"), "result\n");
    const syncOut = (target: string) =>
      t.sync.out({
        ...t.lease(lease),
        operations: [
          {
            operationId: "out-short",
            files: [{ sourcePath: "/paperclip-workspace/short", targetPath: target, kind: "directory" }],
          },
        ],
      });
    const archiveReads = () => emulator.requests().filter((record) => record.route === "files.get").length;

    emulator.faults.set({ faults: [{ kind: "short-file", bytes: 0 }] });
    let reads = archiveReads();
    const once = join(host, "short-once");
    expect((await syncOut(once)).operations[0]).toMatchObject({ filesTransferred: 1 });
    expect(await readFile(join(once, "deep/r.txt"), "utf8")).toBe("result\n");
    expect(emulator.faults.fired()).toHaveLength(1);
    expect(archiveReads() - reads).toBe(2);

    emulator.faults.set({ faults: [{ kind: "short-file", bytes: 700, times: "always" }] });
    reads = archiveReads();
    const always = join(host, "short-always");
    const error = await caught(syncOut(always), "ERR_CREATEOS_SYNC_ARCHIVE_INVALID");
    emulator.faults.clear();
    expect(error.message).toBe("CreateOS sync out received an unreadable archive (incomplete).");
    expect(error.details).toEqual({
      reason: "incomplete",
      expectedBytes: expect.any(Number),
      receivedBytes: 700,
    });
    expect(archiveReads() - reads).toBe(2);
    // Nothing of it on the host (no target, no staging directory), nor in the sandbox's /tmp.
    await expect(stat(always)).rejects.toThrow();
    expect((await readdir(host)).filter((name) => name.includes("short-always"))).toEqual([]);
    const sandbox = emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!;
    expect((await readdir(sandbox.tmpDir)).filter((name) => name.startsWith("paperclip-sync-"))).toEqual([]);
  });

  it("reports a missing source file as the API's 404", async () => {
    const error = await caught(
      t.sync.out({
        ...t.lease(lease),
        operations: [
          {
            operationId: "out-3",
            files: [
              { sourcePath: "/paperclip-workspace/nope", targetPath: join(host, "nope"), kind: "file" },
            ],
          },
        ],
      }),
    );
    expect(error.message).toBe("CreateOS request failed (HTTP 404) during file transfer.");
    await expect(stat(join(host, "nope"))).rejects.toThrow();
  });
});

describe("exclude", () => {
  const patterns = ["*.log", "/build", "sub/**/*.tmp", ".cache"];
  const tree = [
    "a.log",
    "src/b.log",
    ".cache/x",
    "src/.cache/y",
    "build/out.js",
    "sub/y.tmp",
    "sub/x/y.tmp",
    "keep.txt",
    ".env",
    "src/build/keep.js",
    "sub/x/keep.tmp.txt",
  ];
  const kept = [".env", "keep.txt", "src/build/keep.js", "sub/x/keep.tmp.txt"];

  async function plant(root: string): Promise<void> {
    for (const path of tree) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), path);
    }
  }

  async function filesBelow(root: string): Promise<string[]> {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
      .sort();
  }

  it("means the same in both directions (anchored, at any depth, dot names, ** across directories)", async () => {
    const source = join(host, "exclude-src");
    await plant(source);
    const inbound = await t.sync.in({
      ...t.lease(lease),
      operations: [
        {
          operationId: "ex-in",
          files: [
            {
              sourcePath: source,
              targetPath: "/paperclip-workspace/ex-in",
              kind: "directory",
              exclude: patterns,
            },
          ],
        },
      ],
    });
    expect(await filesBelow(join(workspaceDir(), "ex-in"))).toEqual(kept);
    expect(inbound.operations[0]?.filesTransferred).toBe(kept.length);

    await plant(join(workspaceDir(), "ex-out"));
    const target = join(host, "exclude-back");
    const outbound = await t.sync.out({
      ...t.lease(lease),
      operations: [
        {
          operationId: "ex-out",
          files: [
            {
              sourcePath: "/paperclip-workspace/ex-out",
              targetPath: target,
              kind: "directory",
              exclude: patterns,
            },
          ],
        },
      ],
    });
    expect(await filesBelow(target)).toEqual(kept);
    expect(outbound.operations[0]?.filesTransferred).toBe(kept.length);
  });
});
