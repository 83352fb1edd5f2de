import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { startTestEmulator } from "./support/emulator-fixture.js";

const CHILD = fileURLToPath(new URL("./support/host-space-child.ts", import.meta.url));
const MiB = 1024 * 1024;
// The host's file system for the sync out: its budget is 16 MiB less the 5% reserve.
const TMPFS_BYTES = 16 * MiB;
const BIG_BYTES = 24 * MiB;

describe("sync out onto a host file system too small for it", () => {
  it("refuses the tree and the file before the disk fills, leaves nothing, and takes a tree that fits", async () => {
    const emulator: CreateosEmulator = await startTestEmulator();
    onTestFinished(() => emulator.close());
    const host = tempDirForTest("createos-host-space-");
    const source = join(host, "source");
    const target = join(host, "small-fs");
    await mkdir(source);
    await mkdir(target);
    await writeFile(join(source, "big.bin"), Buffer.alloc(BIG_BYTES, 7));
    await writeFile(join(source, "small.txt"), "small\n");

    // bubblewrap gives the child its own mount namespace with a small tmpfs on `target`; the
    // rest of the host, its network included, stays as it is.
    const child = spawn(
      "bwrap",
      [
        "--dev-bind",
        "/",
        "/",
        "--size",
        String(TMPFS_BYTES),
        "--tmpfs",
        target,
        "--die-with-parent",
        "--",
        process.execPath,
        "--import",
        "tsx",
        CHILD,
        emulator.url,
        emulator.apiKey,
        source,
        target,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    const report = JSON.parse(out) as Record<"tree" | "file" | "excluded", Record<string, unknown>>;

    const refusal = {
      code: "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
      message: "CreateOS archive contains unsafe entries or exceeds the extraction limit.",
      details: { entry: "big.bin", budgetBytes: expect.any(Number) },
    };
    expect(report.tree).toEqual({ ...refusal, left: [] });
    expect(report.file).toEqual({ ...refusal, left: [] });
    const budget = (report.tree.details as { budgetBytes: number }).budgetBytes;
    expect(budget).toBeGreaterThan(TMPFS_BYTES * 0.9);
    expect(budget).toBeLessThanOrEqual(Math.ceil(TMPFS_BYTES * 0.95));
    // Excluded entries take none of the budget.
    expect(report.excluded).toEqual({
      result: { operationId: "out", filesTransferred: 1, bytesTransferred: expect.any(Number) },
      left: ["small"],
    });
  }, 120_000);
});
