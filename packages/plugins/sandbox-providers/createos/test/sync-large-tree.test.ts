import { mkdir, open, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { childReport } from "./support/child-report.js";
import { startTestEmulator } from "./support/emulator-fixture.js";

const CHILD = fileURLToPath(new URL("./support/large-sync-child.ts", import.meta.url));
const MiB = 1024 * 1024;
const HEAP_MIB = 48;
const FILES = 6;
const FILE_BYTES = 64 * MiB;
const TREE_BYTES = FILES * FILE_BYTES;

/** Big files cost no disk on the host side: sparse, with a distinct tail so a mix-up shows. */
async function makeTree(root: string): Promise<void> {
  await mkdir(join(root, "nested/deeper"), { recursive: true });
  for (let index = 0; index < FILES; index++) {
    const handle = await open(
      join(root, index % 2 === 0 ? `big-${index}.bin` : `nested/big-${index}.bin`),
      "w",
    );
    try {
      const tail = Buffer.from(`tail of file ${index}\n`);
      await handle.write(tail, 0, tail.length, FILE_BYTES - tail.length);
    } finally {
      await handle.close();
    }
  }
  await writeFile(join(root, "nested/deeper/small.txt"), "small\n");
}

async function tailOf(path: string, length: number): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, (await handle.stat()).size - length);
    return buffer.toString();
  } finally {
    await handle.close();
  }
}

interface ChildReport {
  into: { filesTransferred: number; bytesTransferred: number };
  back: { filesTransferred: number; bytesTransferred: number };
  peakRssBytes: number;
  rssBeforeBytes: number;
  heapLimitBytes: number;
}

describe("sync of a tree larger than the worker's heap", () => {
  it("streams both directions: the tree arrives whole while the process stays far below its size", async () => {
    const emulator: CreateosEmulator = await startTestEmulator({ rateLimitPerMinute: null });
    onTestFinished(() => emulator.close());
    const host = tempDirForTest("createos-large-sync-");
    const source = join(host, "source");
    const target = join(host, "target");
    await makeTree(source);

    const report = await childReport<ChildReport>(process.execPath, [
      `--max-old-space-size=${HEAP_MIB}`,
      "--import",
      "tsx",
      CHILD,
      emulator.url,
      emulator.apiKey,
      source,
      target,
    ]);

    // The whole V8 heap (old space capped at HEAP_MIB, plus the young generation) is smaller than the tree.
    expect(report.heapLimitBytes).toBeLessThan(TREE_BYTES);
    expect(report.into.filesTransferred).toBe(FILES + 1);
    expect(report.into.bytesTransferred).toBeGreaterThan(TREE_BYTES);
    expect(report.back).toMatchObject({ filesTransferred: FILES + 1 });
    expect(report.back.bytesTransferred).toBeGreaterThan(TREE_BYTES);
    // Holding either archive whole would add at least the tree's size to the process; the
    // kernel's high-water mark of its resident memory cannot miss a moment it did.
    expect(report.peakRssBytes - report.rssBeforeBytes).toBeLessThan(TREE_BYTES / 4);

    for (let index = 0; index < FILES; index++) {
      const name = index % 2 === 0 ? `big-${index}.bin` : `nested/big-${index}.bin`;
      expect((await stat(join(target, name))).size).toBe(FILE_BYTES);
      expect(await tailOf(join(target, name), 32)).toContain(`tail of file ${index}\n`);
    }
    expect(await readFile(join(target, "nested/deeper/small.txt"), "utf8")).toBe("small\n");
  }, 180_000);
});
