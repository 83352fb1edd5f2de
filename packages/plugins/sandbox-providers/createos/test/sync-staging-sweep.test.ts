/**
 * A worker killed mid-sync-out leaves its staging directory beside the target; the next sync
 * to the same target sweeps it, and only it: never another process's live staging, another
 * target's, a near-miss name or a link.
 */
import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { manifest } from "../src/manifest.js";
import { ownStagingOwner, stagingPrefix } from "../src/sync/staging-name.js";
import { startTestEmulator } from "./support/emulator-fixture.js";
import { type EmulatorAddress, emulatorConfig } from "./support/plugin-harness.js";
import { startTricklingFilesProxy } from "./support/trickling-files-proxy.js";
import { WorkerHost } from "./support/worker-host.js";

const WORKER = fileURLToPath(new URL("../dist/worker.js", import.meta.url));

interface Lease {
  providerLeaseId: string;
  metadata: Record<string, unknown>;
}

/** A worker started as the host starts it, initialized against `api`. */
async function startWorker(
  api: EmulatorAddress,
): Promise<{ worker: WorkerHost; base: Record<string, unknown> }> {
  const { CREATEOS_API_KEY: _unset, ...env } = process.env;
  const worker = WorkerHost.start(WORKER, env);
  onTestFinished(() => worker.kill());
  await worker.call("initialize", {
    manifest,
    config: {},
    instanceInfo: { instanceId: "test-instance", hostVersion: "2026.916.1" },
    apiVersion: 1,
  });
  const base = {
    driverKey: "createos",
    companyId: "company-1",
    environmentId: "env-sweep",
    config: emulatorConfig(api),
  };
  return { worker, base };
}

function syncOutParams(base: Record<string, unknown>, lease: Lease, target: string) {
  return {
    ...base,
    lease,
    operations: [
      {
        operationId: "sweep",
        files: [{ sourcePath: "/paperclip-workspace/tree", targetPath: target, kind: "directory" }],
      },
    ],
  };
}

describe("staging a killed worker left beside a sync-out target", () => {
  it("is swept by the next sync to that target, and nothing else is", async () => {
    const emulator: CreateosEmulator = await startTestEmulator();
    onTestFinished(() => emulator.close());
    const proxy = await startTricklingFilesProxy(emulator);
    onTestFinished(() => proxy.close());
    const host = tempDirForTest("createos-sweep-");
    const target = join(host, "target");

    // The first worker's download trickles forever: it is held mid-extraction, then killed.
    const first = await startWorker(proxy);
    const lease = await first.worker.call<Lease>("environmentAcquireLease", {
      ...first.base,
      runId: "sweep",
    });
    const sandbox = emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!;
    await mkdir(join(sandbox.workspaceDir, "tree"));
    await writeFile(join(sandbox.workspaceDir, "tree/a.txt"), "a\n");
    onTestFinished(async () => {
      const cleaner = await startWorker(proxy);
      await cleaner.worker.call("environmentDestroyLease", {
        ...cleaner.base,
        providerLeaseId: lease.providerLeaseId,
        leaseMetadata: lease.metadata,
      });
    });
    const held = first.worker.call("environmentSyncOut", syncOutParams(first.base, lease, target));
    held.catch(() => undefined);
    // Held once the trickled file's entry is being written into the staging directory.
    const staged = async (): Promise<string[]> => {
      const names = (await readdir(host)).filter((name) => name.startsWith(".target.paperclip-sync-"));
      const filled = await Promise.all(
        names.map(async (name) => (await readdir(join(host, name))).length > 0),
      );
      return names.filter((_, i) => filled[i]);
    };
    await expect.poll(async () => (await staged()).length).toBe(1);
    const [left] = await staged();
    first.worker.kill();
    await first.worker.exit();
    await proxy.downloadsClosed();
    expect(await readdir(join(host, left!))).toEqual(["slow.bin"]);

    // What the sweep must leave: a live process's staging (this test runner's), another
    // target's, a near-miss name, and a link of the exact pattern to a directory of its own.
    const keep = join(host, "keep");
    await mkdir(join(keep, "inside"), { recursive: true });
    const dead = { ...ownStagingOwner(), pid: 2147483646 };
    const linked = `${stagingPrefix(target, dead)}linked`;
    const untouched = [
      `${stagingPrefix(target, ownStagingOwner())}abcdef`,
      `${stagingPrefix(join(host, "other"), dead)}abcdef`,
      ".target.paperclip-sync-notapid",
    ];
    for (const name of untouched) await mkdir(join(host, name));
    await symlink(keep, join(host, linked));

    // A lease is bound to its API's origin: the next sync, straight to the emulator, has its own.
    const second = await startWorker(emulator);
    const own = await second.worker.call<Lease>("environmentAcquireLease", {
      ...second.base,
      runId: "sweep-2",
    });
    onTestFinished(async () => {
      await second.worker.call("environmentDestroyLease", {
        ...second.base,
        providerLeaseId: own.providerLeaseId,
        leaseMetadata: own.metadata,
      });
    });
    const ownSandbox = emulator.sandboxes().find((s) => s.id === own.providerLeaseId)!;
    await mkdir(join(ownSandbox.workspaceDir, "tree"));
    await writeFile(join(ownSandbox.workspaceDir, "tree/a.txt"), "a\n");
    await second.worker.call("environmentSyncOut", syncOutParams(second.base, own, target));
    expect((await readdir(host)).sort()).toEqual([...untouched, linked, "keep", "target"].sort());
    expect(await readdir(join(keep))).toEqual(["inside"]);
    expect(await readdir(target)).toEqual(["a.txt"]);
  });
});
