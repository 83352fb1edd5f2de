import { readdir } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// Stdin is staged as a file in the sandbox's /tmp, and it may hold prompts and secrets. A
// worker killed while the command runs never removes it after the command: the command's own
// shell must have removed it before the command runs. Checked once the command has written
// its first output (it has started), while it still runs.

const fixture = useTestEmulator();

describe("a command given stdin", () => {
  it("runs with its staged stdin file already removed", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "stdin" });
    const sandboxId = lease.providerLeaseId!;
    const running = t.harness
      .execute({
        ...t.lease(lease),
        command: "/bin/sh",
        args: ["-c", "cat; exec sleep 30"],
        stdin: "secret\n",
      })
      .catch(() => undefined);
    const started = () =>
      fixture.emulator
        .processes()
        .some((p) => p.sandboxId === sandboxId && p.running && (p.newestSeq ?? 0) > 0);
    while (!started()) await delay(10);

    const sandbox = fixture.emulator.sandboxes().find((s) => s.id === sandboxId)!;
    expect((await readdir(sandbox.tmpDir)).filter((name) => name.startsWith("paperclip-stdin-"))).toEqual([]);
    await t.harness.destroyLease({ ...t.base, providerLeaseId: sandboxId, leaseMetadata: lease.metadata! });
    await running;
  });
});
