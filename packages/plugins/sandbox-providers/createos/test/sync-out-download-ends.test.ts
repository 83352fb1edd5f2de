/**
 * A sync out that fails on the host's side after its download was answered (the target's
 * directory cannot be made) ends that download with it: otherwise its connection stays open,
 * and its deadline armed, until the request deadline (here 10 minutes) ends it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDirForFile } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { useRunningSandbox } from "./support/emulator-fixture.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";
import { startTricklingFilesProxy } from "./support/trickling-files-proxy.js";

const fixture = useRunningSandbox();
const host = tempDirForFile("createos-sync-out-download-ends-");

/** Far past the moment the download closes once it is ended, far short of the request deadline. */
const CLOSED_WITHIN_MS = 10_000;

async function closedWithin(closed: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([closed.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a single file synced out below a host file", () => {
  it("fails, and its download is closed with it", async () => {
    const proxy = await startTricklingFilesProxy(fixture.emulator);
    onTestFinished(() => proxy.close());
    const t = await pluginUnderTest(proxy, { requestTimeoutMs: 600_000 }, "env-download-ends");
    const lease = await t.harness.acquireLease({ ...t.base, runId: "download-ends" });
    onTestFinished(async () => {
      await t.harness.destroyLease({
        ...t.base,
        providerLeaseId: lease.providerLeaseId,
        leaseMetadata: lease.metadata!,
      });
    });
    const blocker = join(host, "a-file");
    await writeFile(blocker, "not a directory\n");

    await expect(
      t.sync.out({
        ...t.lease(lease),
        operations: [
          {
            operationId: "below-a-file",
            files: [
              { sourcePath: "/paperclip-workspace/f.txt", targetPath: join(blocker, "f.txt"), kind: "file" },
            ],
          },
        ],
      }),
    ).rejects.toMatchObject({ code: "EEXIST", syscall: "mkdir" });
    expect(await closedWithin(proxy.downloadsClosed(), CLOSED_WITHIN_MS)).toBe(true);
  });
});
