import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { childReport } from "./support/child-report.js";
import { startTestEmulator } from "./support/emulator-fixture.js";
import type { HostSpaceCase } from "./support/host-space-child.js";

const CHILD = fileURLToPath(new URL("./support/host-space-child.ts", import.meta.url));
const MiB = 1024 * 1024;
// The host's file system for the sync out: its budget is 16 MiB less the 5% reserve.
const TMPFS_BYTES = 16 * MiB;
const BIG_BYTES = 24 * MiB;
// The same size with few inodes: its entry budget is 200 less the 5% reserve (10) and the inodes
// of its root and of the sync's staging directory.
const TMPFS_INODES = 200;
const MANY_FILES = 400;

type Report = Record<string, Record<string, unknown>>;

/**
 * Syncs `source` into a fresh sandbox, then each case out onto a tmpfs of its own mounted on
 * `target`, in a child started in its own mount namespace by bubblewrap (the rest of the host,
 * its network included, stays as it is); returns what each sync out did and left.
 */
async function syncOutOntoSmallFs(
  host: string,
  mountOptions: string,
  cases: Record<string, HostSpaceCase>,
): Promise<Report> {
  const emulator: CreateosEmulator = await startTestEmulator();
  onTestFinished(() => emulator.close());
  const target = join(host, "small-fs");
  await mkdir(target);
  // Mounted by the child's own shell, in a user namespace where it may (bubblewrap's `--size`
  // sets no inode count).
  return childReport<Report>("bwrap", [
    "--dev-bind",
    "/",
    "/",
    "--unshare-user",
    "--uid",
    "0",
    "--gid",
    "0",
    "--cap-add",
    "CAP_SYS_ADMIN",
    "--die-with-parent",
    "--",
    "/bin/sh",
    "-c",
    'mount -t tmpfs -o "$1" tmpfs "$2" && shift 2 && exec "$@"',
    "sh",
    mountOptions,
    target,
    process.execPath,
    "--import",
    "tsx",
    CHILD,
    emulator.url,
    emulator.apiKey,
    join(host, "source"),
    target,
    JSON.stringify(cases),
  ]);
}

describe("sync out onto a host file system too small for it", () => {
  it("refuses the tree and the file before the disk fills, leaves nothing, and takes a tree that fits", async () => {
    const host = tempDirForTest("createos-host-space-");
    await mkdir(join(host, "source"));
    await writeFile(join(host, "source/big.bin"), Buffer.alloc(BIG_BYTES, 7));
    await writeFile(join(host, "source/small.txt"), "small\n");
    const report = await syncOutOntoSmallFs(host, `size=${TMPFS_BYTES}`, {
      tree: { source: "", target: "tree", kind: "directory" },
      file: { source: "big.bin", target: "big.bin", kind: "file" },
      excluded: { source: "", target: "small", kind: "directory", exclude: ["big.bin"] },
    });

    const refusal = {
      code: "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
      message: "CreateOS archive contains unsafe entries or exceeds the extraction limit.",
      details: { entry: "big.bin", budgetBytes: expect.any(Number) },
    };
    expect(report.tree).toEqual({ ...refusal, left: [] });
    expect(report.file).toEqual({ ...refusal, left: [] });
    const budget = (report.tree as { details: { budgetBytes: number } }).details.budgetBytes;
    expect(budget).toBeGreaterThan(TMPFS_BYTES * 0.9);
    expect(budget).toBeLessThanOrEqual(Math.ceil(TMPFS_BYTES * 0.95));
    // Excluded entries take none of the budget.
    expect(report.excluded).toEqual({
      result: { operationId: "out", filesTransferred: 1, bytesTransferred: expect.any(Number) },
      left: ["small"],
    });
  }, 120_000);

  it("refuses a tree of more files than the file system has inodes to spare, though they weigh nothing", async () => {
    const host = tempDirForTest("createos-host-space-");
    await mkdir(join(host, "source/many"), { recursive: true });
    for (let index = 0; index < MANY_FILES; index++) await writeFile(join(host, `source/many/e${index}`), "");
    await writeFile(join(host, "source/small.txt"), "small\n");
    const report = await syncOutOntoSmallFs(host, `size=${TMPFS_BYTES},nr_inodes=${TMPFS_INODES}`, {
      tree: { source: "", target: "tree", kind: "directory" },
      excluded: { source: "", target: "small", kind: "directory", exclude: ["many"] },
    });

    // Refused before the inode table filled (a full one stops every write on the host, as a
    // full disk does), with nothing left of it.
    expect(report.tree).toEqual({
      code: "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
      message: "CreateOS archive contains unsafe entries or exceeds the extraction limit.",
      details: { entry: expect.stringMatching(/^many\/e\d+$/), budgetEntries: TMPFS_INODES - 10 - 2 },
      left: [],
    });
    expect(report.excluded).toEqual({
      result: { operationId: "out", filesTransferred: 1, bytesTransferred: expect.any(Number) },
      left: ["small"],
    });
  }, 120_000);
});
