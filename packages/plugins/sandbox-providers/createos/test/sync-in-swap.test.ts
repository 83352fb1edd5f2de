/**
 * Sync in against another host process that can write the source tree: an entry swapped for a
 * link out of the source (to a host secret) once it was checked must not send the link's
 * target; what is packed is what was checked. The swap is ordered by the packer's internal
 * test window (`src/sync/pack-window.ts`), so it lands between the check and the read every time.
 */
import { renameSync, symlinkSync, truncateSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { caught } from "@paperclipai/errors/testing";
import type { PluginEnvironmentLease } from "@paperclipai/plugin-sdk";
import { tempDirForFile, tempDirForTest } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { packWindow } from "../src/sync/pack-window.js";
import { startTestEmulator } from "./support/emulator-fixture.js";
import type { PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

const host = tempDirForFile("createos-swap-");
const SECRET = "TOKEN=host-secret\n";
// As long as the secret: a reader that followed the swapped-in link would not notice by its size.
const CHECKED = "checked data 0123\n";
let emulator: CreateosEmulator;
let t: PluginUnderTest;
let lease: PluginEnvironmentLease;

beforeAll(async () => {
  emulator = await startTestEmulator();
  t = await pluginUnderTest(emulator);
  lease = await t.harness.acquireLease({ ...t.base, runId: "swap" });
});

afterAll(async () => {
  await t.harness.destroyLease({
    ...t.base,
    providerLeaseId: lease.providerLeaseId,
    leaseMetadata: lease.metadata!,
  });
  await emulator.close();
});

function workspace(): string {
  return emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!.workspaceDir;
}

/** A source with a plain file `data.txt` and a directory `dir/`, and a secret beside it. */
async function scene(): Promise<{ source: string; secret: string; secretDir: string }> {
  const base = tempDirForTest("createos-swap-scene-", { base: host });
  const source = join(base, "source");
  await mkdir(join(source, "dir"), { recursive: true });
  await writeFile(join(source, "data.txt"), CHECKED);
  await writeFile(join(source, "dir/inner.txt"), "inner\n");
  const secret = join(base, "secret.env");
  await writeFile(secret, SECRET);
  const secretDir = join(base, "ssh");
  await mkdir(secretDir);
  await writeFile(join(secretDir, "id_ed25519"), SECRET);
  return { source, secret, secretDir };
}

/** Replaces `path` with a link to `to`, as a host-side writer would (a directory is moved aside first). */
function swapForLink(path: string, to: string): void {
  symlinkSync(to, `${path}.swap`);
  renameSync(path, `${path}.aside`);
  renameSync(`${path}.swap`, path);
}

function onWindow(path: string, swap: () => void): void {
  let done = false;
  packWindow.afterCheck = (seen) => {
    if (done || seen !== path) return;
    done = true;
    swap();
  };
  onTestFinished(() => {
    packWindow.afterCheck = undefined;
  });
}

async function syncIn(source: string, target: string, followSymlinks: boolean): Promise<void> {
  await t.sync.in({
    ...t.lease(lease),
    operations: [
      {
        operationId: "swap",
        files: [{ sourcePath: source, targetPath: target, kind: "directory", followSymlinks }],
      },
    ],
  });
}

describe("an entry swapped for a link out of the source once it was checked", () => {
  it.each([
    ["with followSymlinks", true],
    ["without followSymlinks", false],
  ])("a file: the checked bytes are sent, never the link's target (%s)", async (_name, follow) => {
    const { source, secret } = await scene();
    onWindow("./data.txt", () => swapForLink(join(source, "data.txt"), secret));
    const target = `/paperclip-workspace/file-${follow}`;
    await syncIn(source, target, follow);
    const landed = join(workspace(), target.slice("/paperclip-workspace/".length));
    expect(await readFile(join(landed, "data.txt"), "utf8")).toBe(CHECKED);
    expect(await readFile(join(landed, "dir/inner.txt"), "utf8")).toBe("inner\n");
  });

  it.each([
    ["with followSymlinks", true],
    ["without followSymlinks", false],
  ])(
    "a directory: the checked directory's entries are sent, never the link target's (%s)",
    async (_name, follow) => {
      const { source, secretDir } = await scene();
      onWindow("./dir", () => swapForLink(join(source, "dir"), secretDir));
      const target = `/paperclip-workspace/dir-${follow}`;
      const outcome = await syncIn(source, target, follow).then(
        () => "synced",
        (error: unknown) => error,
      );
      const landed = join(workspace(), target.slice("/paperclip-workspace/".length));
      if (outcome === "synced") {
        expect(await readFile(join(landed, "dir/inner.txt"), "utf8")).toBe("inner\n");
        await expect(readFile(join(landed, "dir/id_ed25519"), "utf8")).rejects.toThrow();
      } else {
        expect(outcome).toMatchObject({ code: "ERR_CREATEOS_SYNC_LINK_ESCAPES" });
      }
    },
  );
});

describe("an entry swapped for a link out of the source before it was checked", () => {
  it("is refused with the upstream-worded error, nothing of it sent", async () => {
    const { source, secret } = await scene();
    // The window of the source's root: after the check before any request, before `data.txt` is reached.
    onWindow(".", () => swapForLink(join(source, "data.txt"), secret));
    const error = await caught(syncIn(source, "/paperclip-workspace/late", true));
    expect(error.code).toBe("ERR_CREATEOS_SYNC_LINK_ESCAPES");
    expect(error.message).toContain("does not support followSymlinks for host directory uploads");
    expect(error.details).toMatchObject({ link: "./data.txt" });
    await expect(readFile(join(workspace(), "late/data.txt"), "utf8")).rejects.toThrow();
  });
});

describe("a file truncated once it was checked", () => {
  it("is never sent short of the size its header gave: the upload starts over and reads it as it is", async () => {
    const { source } = await scene();
    // ERR_CREATEOS_SYNC_SOURCE_CHANGED ends the first attempt; the client's retry packs the file anew.
    onWindow("./data.txt", () => truncateSync(join(source, "data.txt"), 4));
    await syncIn(source, "/paperclip-workspace/shrunk", false);
    expect(await readFile(join(workspace(), "shrunk/data.txt"), "utf8")).toBe(CHECKED.slice(0, 4));
    expect(await readFile(join(workspace(), "shrunk/dir/inner.txt"), "utf8")).toBe("inner\n");
  });
});
