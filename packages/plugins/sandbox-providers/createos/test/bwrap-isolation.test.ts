import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator } from "./support/emulator-fixture.js";
import type { PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// Under bubblewrap the sandbox paths are exact, as on the real service.
let emulator: CreateosEmulator;
let t: PluginUnderTest;

beforeAll(async () => {
  emulator = await startTestEmulator({ isolation: "bwrap" });
  t = await pluginUnderTest(emulator);
});

afterAll(async () => {
  await emulator.close();
});

describe("the plugin against a bubblewrap-isolated emulator", () => {
  it("runs in /paperclip-workspace with exact paths, stdin staged in /tmp", async () => {
    const lease = await t.harness.acquireLease({ ...t.base, runId: "bwrap" });
    const realized = await t.harness.realizeWorkspace({ ...t.lease(lease), workspace: {} });
    const result = await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/sh",
      args: ["-c", 'pwd; cat; ls -a "$PWD/.paperclip-runtime"'],
      cwd: realized.cwd,
      stdin: "from stdin\n",
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split("\n").slice(0, 2)).toEqual(["/paperclip-workspace", "from stdin"]);
    expect(result.stdout).toContain(".paperclip-createos-lease");
    const receipt = await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt?.state).toBe("destroyed");
  });

  it("syncs a tree in and back out with its modes", async () => {
    const host = tempDirForTest("createos-bwrap-sync-");
    await mkdir(join(host, "in/sub"), { recursive: true });
    await writeFile(join(host, "in/sub/data.txt"), "payload\n", { mode: 0o640 });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "bwrap-sync" });
    await t.sync.in({
      ...t.lease(lease),
      operations: [
        {
          operationId: "in",
          files: [
            { sourcePath: join(host, "in"), targetPath: "/paperclip-workspace/project", kind: "directory" },
          ],
          postUploadCommands: [
            {
              command: 'test "$(pwd)" = /paperclip-workspace/project && echo ok > marker',
              cwd: "/paperclip-workspace/project",
            },
          ],
        },
      ],
    });
    await t.sync.out({
      ...t.lease(lease),
      operations: [
        {
          operationId: "out",
          files: [
            {
              sourcePath: "/paperclip-workspace/project",
              targetPath: join(host, "out"),
              kind: "directory",
            },
          ],
        },
      ],
    });
    expect(await readFile(join(host, "out/sub/data.txt"), "utf8")).toBe("payload\n");
    expect((await stat(join(host, "out/sub/data.txt"))).mode & 0o777).toBe(0o640);
    expect(await readFile(join(host, "out/marker"), "utf8")).toBe("ok\n");
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
  });
});
