import { existsSync, mkdtempSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OWNER_RECORD_NAME, readOwnerRecord, removeOwnerRecord, writeOwnerRecord } from "./owner-record.js";
import { preparePrivateRoot } from "./prepare-private-root.js";
import { privateSocketRoots } from "./private-socket-roots.js";

const created: string[] = [];

/** A fresh directory in the first private socket root, as a run directory is made. */
function runDirInPrivateRoot(): string {
  const root = privateSocketRoots(process.getuid?.() ?? 0)[0]!;
  preparePrivateRoot(root);
  const dir = mkdtempSync(path.join(root, "paperclip-network-sandbox-"));
  created.push(dir);
  return dir;
}

afterEach(async () => {
  for (const dir of created.splice(0)) {
    await removeOwnerRecord(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("writeOwnerRecord in a private root", () => {
  it("writes the record inside the directory, where the sweep reads it", async () => {
    const dir = runDirInPrivateRoot();
    expect(writeOwnerRecord(dir)).toBe(true);
    const record = JSON.parse(readFileSync(path.join(dir, OWNER_RECORD_NAME), "utf8"));
    expect(record.pid).toBe(process.pid);
    expect(await readOwnerRecord(dir)).toEqual({ pid: process.pid, startTicks: record.startTicks });
    await removeOwnerRecord(dir);
    // The record goes with its directory, not on its own.
    expect(existsSync(path.join(dir, OWNER_RECORD_NAME))).toBe(true);
  });

  it("refuses a directory that is gone instead of making it again", () => {
    const dir = runDirInPrivateRoot();
    rmdirSync(dir);
    expect(writeOwnerRecord(dir)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});
