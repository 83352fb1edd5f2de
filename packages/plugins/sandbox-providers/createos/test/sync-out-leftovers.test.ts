import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForFile } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// A sync out packs the directory into an archive in the sandbox's /tmp, then downloads it. The
// host's deadline (1 s after the margin) ends it during the download, which the emulator holds
// 2.5 s: its timer is set before the download is sent, the emulator's after it arrives, so the
// order is fixed. The sync's own signal is spent by then; the archive must still be removed.

const fixture = useTestEmulator();
const host = tempDirForFile("createos-sync-out-leftovers-");

describe("a sync out ended by the host's deadline during its download", () => {
  it("removes the archive it packed in the sandbox", async () => {
    const t = await pluginUnderTest(fixture.emulator, {}, "env-1", {
      hostLimits: { rpcOverheadMs: 1_000, marginMs: 500 },
    });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "leftovers" });
    const sandboxId = lease.providerLeaseId!;
    const sandbox = fixture.emulator.sandboxes().find((s) => s.id === sandboxId)!;
    await mkdir(join(sandbox.workspaceDir, "out"));
    await writeFile(join(sandbox.workspaceDir, "out", "a.txt"), "alpha\n");
    fixture.emulator.faults.add({ kind: "late-apply", route: "files.get", delayMs: 2_500, sandboxId });

    const error = await caught(
      t.sync.out({
        ...t.lease(lease),
        config: { ...t.base.config, timeoutMs: 500 },
        operations: [
          {
            operationId: "out-1",
            files: [
              { sourcePath: "/paperclip-workspace/out", targetPath: join(host, "out"), kind: "directory" },
            ],
          },
        ],
      }),
    );
    expect(error.code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    await fixture.emulator.settled();

    expect((await readdir(sandbox.tmpDir)).filter((name) => name.startsWith("paperclip-sync-"))).toEqual([]);
    await t.harness.destroyLease({ ...t.base, providerLeaseId: sandboxId, leaseMetadata: lease.metadata! });
  });
});
