import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForFile } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// A sync in stages what it uploads (a directory's archive, a single file's temporary file, the
// latter beside the user's target in the workspace) and promotes it with a second step. That
// step is refused here (a 500 the emulator answers without running it): what was staged must
// not stay in the sandbox.

const fixture = useTestEmulator();
const host = tempDirForFile("createos-sync-in-leftovers-");

/** Every name under `dir`, as paths relative to it. */
async function allNames(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String);
}

describe("a sync in whose promoting step fails", () => {
  it("leaves nothing it staged in the sandbox", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "leftovers" });
    const sandboxId = lease.providerLeaseId!;
    const source = join(host, "tree");
    await mkdir(source);
    await writeFile(join(source, "a.txt"), "alpha\n");
    await writeFile(join(host, "b.txt"), "beta\n");
    const files = [
      { sourcePath: source, targetPath: "/paperclip-workspace/tree", kind: "directory" as const },
      {
        sourcePath: join(host, "b.txt"),
        targetPath: "/paperclip-workspace/conf/b.txt",
        kind: "file" as const,
      },
    ];

    for (const file of files) {
      // The first exec (the target's directory) passes; the one after the upload is refused.
      fixture.emulator.faults.add({
        kind: "http-status",
        route: "sandbox.exec",
        status: 500,
        skip: 1,
        sandboxId,
      });
      const error = await caught(
        t.sync.in({ ...t.lease(lease), operations: [{ operationId: "op-1", files: [file] }] }),
      );
      expect(error.code).toBe("ERR_CREATEOS_HTTP_STATUS");
    }

    const sandbox = fixture.emulator.sandboxes().find((s) => s.id === sandboxId)!;
    const names = [...(await allNames(sandbox.workspaceDir)), ...(await allNames(sandbox.tmpDir))];
    expect(names.filter((name) => name.includes(".paperclip-sync-"))).toEqual([]);
    await t.harness.destroyLease({ ...t.base, providerLeaseId: sandboxId, leaseMetadata: lease.metadata! });
  });
});
