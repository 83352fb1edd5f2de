/**
 * A `kind: "file"` mapping names "a single regular file" (the SDK's contract). A host path that
 * names a FIFO or a device instead must be refused before it is opened: opening a FIFO with no
 * writer blocks one of libuv's four pool threads for good (every later file operation and DNS
 * lookup of the worker waits behind a few of them), a device such as `/dev/zero` never ends, and
 * opening some devices acts (a tape rewinds, a watchdog arms).
 */

import { execFileSync } from "node:child_process";
import { constants } from "node:fs";
import { open, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { caught } from "@paperclipai/errors/testing";
import type { PluginEnvironmentLease } from "@paperclipai/plugin-sdk";
import { tempDirForFile } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startTestEmulator } from "./support/emulator-fixture.js";
import type { PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// Before the afterAll below, so it is removed after the emulator closed (hooks run in reverse).
const host = tempDirForFile("createos-sync-special-");

let emulator: CreateosEmulator;
let t: PluginUnderTest;
let lease: PluginEnvironmentLease;

beforeAll(async () => {
  emulator = await startTestEmulator();
  t = await pluginUnderTest(emulator);
  lease = await t.harness.acquireLease({ ...t.base, runId: "sync-special" });
});

afterAll(async () => {
  await emulator.close();
});

function syncInFile(sourcePath: string) {
  return t.sync.in({
    ...t.lease(lease),
    operations: [
      {
        operationId: "special",
        files: [{ sourcePath, targetPath: "/paperclip-workspace/special.txt", kind: "file" }],
      },
    ],
  });
}

/** Whether some process has the FIFO open for reading, or waits in its open to read it. */
async function fifoHasReader(path: string): Promise<boolean> {
  try {
    await (await open(path, constants.O_WRONLY | constants.O_NONBLOCK)).close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENXIO") return false;
    throw error;
  }
}

describe("a file mapping whose host path is not a regular file", () => {
  it("refuses a FIFO without opening it, before any request", async () => {
    const fifo = join(host, "pipe");
    execFileSync("mkfifo", [fifo]);
    // Should the sync wait in the FIFO's open, a writer's open and close lets that open end.
    onTestFinished(async () => void (await fifoHasReader(fifo)));
    const before = emulator.requests().length;
    const error = await caught(syncInFile(fifo));
    expect(error.code).toBe("ERR_CREATEOS_SYNC_SOURCE_NOT_FILE");
    expect(error.details).toMatchObject({ operationId: "special", type: "fifo" });
    expect(await fifoHasReader(fifo)).toBe(false);
    expect(emulator.requests().length).toBe(before);
  });

  it.each([
    ["a character device", "/dev/null", "device"],
    ["a directory", "/", "directory"],
  ])("refuses %s, before any request", async (_name, sourcePath, type) => {
    const before = emulator.requests().length;
    const error = await caught(syncInFile(sourcePath));
    expect(error.code).toBe("ERR_CREATEOS_SYNC_SOURCE_NOT_FILE");
    expect(error.details).toMatchObject({ operationId: "special", type });
    expect(emulator.requests().length).toBe(before);
  });

  it.each([
    ["a FIFO, never opened", "fifo"],
    ["a regular file", "file"],
  ])("refuses %s mapped as a directory, before any request", async (_name, type) => {
    const source = join(host, `${type}-as-directory`);
    if (type === "fifo") {
      execFileSync("mkfifo", [source]);
      onTestFinished(async () => void (await fifoHasReader(source)));
    } else await writeFile(source, "a file\n");
    const before = emulator.requests().length;
    const error = await caught(
      t.sync.in({
        ...t.lease(lease),
        operations: [
          {
            operationId: "special",
            files: [{ sourcePath: source, targetPath: "/paperclip-workspace/special", kind: "directory" }],
          },
        ],
      }),
    );
    expect(error.code).toBe("ERR_CREATEOS_SYNC_SOURCE_NOT_DIRECTORY");
    expect(error.details).toMatchObject({ operationId: "special", type });
    expect(emulator.requests().length).toBe(before);
    if (type === "fifo") expect(await fifoHasReader(source)).toBe(false);
  });

  it("still sends a file reached through a link the caller named, with nothing staged left", async () => {
    const dir = join(host, "linked");
    execFileSync("mkdir", ["-p", dir]);
    execFileSync("sh", [
      "-c",
      'printf "through the link\\n" > "$1/real.txt" && ln -s real.txt "$1/named.txt"',
      "sh",
      dir,
    ]);
    await syncInFile(join(dir, "named.txt"));
    const workspace = emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!.workspaceDir;
    expect(execFileSync("cat", [join(workspace, "special.txt")], { encoding: "utf8" })).toBe(
      "through the link\n",
    );
    expect((await readdir(workspace)).filter((name) => name.startsWith(".paperclip-sync-"))).toEqual([]);
  });
});
