import { caught } from "@paperclipai/errors/testing";
import {
  assertEnvironmentEventOrder,
  assertExecutionLifecycle,
  assertLeaseLifecycle,
  assertWorkspaceRealizationLifecycle,
  definePlugin,
  type PluginEnvironmentLease,
} from "@paperclipai/plugin-sdk";
import { describe, expect, it } from "vitest";
import { createPlugin } from "../src/plugin/create-plugin.js";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { emulatorConfig, hostReusable, joinedLog, type PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

const fixture = useTestEmulator();

/** A command on `lease` that prints `up`, then sleeps until the test ends it: its failure. */
function sleeper(t: PluginUnderTest, lease: PluginEnvironmentLease) {
  return caught(
    t.harness.execute({ ...t.lease(lease), command: "/bin/bash", args: ["-c", "echo up; sleep 30"] }),
  );
}

/** Resolves once `count` sleepers have printed `up`, so each one's process is running. */
async function sleepersUp(t: PluginUnderTest, count = 1): Promise<void> {
  await expect
    .poll(() => t.log.filter((entry) => entry.chunk === "up\n").length >= count, {
      message: `${count} command(s) started`,
      timeout: 15_000,
    })
    .toBe(true);
}

describe("the plugin through the SDK's environment harness", () => {
  it("validateConfig -> probe -> acquire -> realize -> execute -> release", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const validation = await t.harness.validateConfig({ driverKey: "createos", config: t.base.config });
    expect(validation.ok).toBe(true);
    expect(validation.normalizedConfig).toMatchObject({ apiUrl: fixture.emulator.url, shape: "s-1vcpu-1gb" });

    const sandboxesBefore = fixture.emulator.sandboxes().length;
    const probe = await t.harness.probe(t.base);
    expect(probe).toMatchObject({
      ok: true,
      summary: "CreateOS sandbox creation and command execution succeeded.",
    });
    expect(fixture.emulator.sandboxes()).toHaveLength(sandboxesBefore + 1);
    expect(fixture.emulator.sandboxes().at(-1)?.status).toBe("destroyed");

    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-1" });
    expect(lease.providerLeaseId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(lease.metadata).toMatchObject({
      provider: "createos",
      companyId: "company-1",
      environmentId: "env-1",
      apiOrigin: fixture.emulator.url,
    });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("running");

    const realized = await t.harness.realizeWorkspace({ ...t.lease(lease), workspace: {} });
    expect(realized.cwd).toBe("/paperclip-workspace");

    const result = await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/bash",
      args: ["-c", 'for i in $(seq 1 50); do echo "line $i 🙂"; done; echo warn >&2; exit 4'],
      cwd: realized.cwd,
      env: { RUN: "1" },
    });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe(Array.from({ length: 50 }, (_, i) => `line ${i + 1} 🙂\n`).join(""));
    expect(result.stderr).toBe("warn\n");
    expect(joinedLog(t.log, "stdout")).toBe(result.stdout);
    expect(joinedLog(t.log, "stderr")).toBe(result.stderr);

    const receipt = await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("destroyed");

    const events = t.harness.environmentEvents;
    assertEnvironmentEventOrder(events, [
      "validateConfig",
      "probe",
      "acquireLease",
      "realizeWorkspace",
      "execute",
      "releaseLease",
    ]);
    assertLeaseLifecycle(events, "env-1");
    assertWorkspaceRealizationLifecycle(events, "env-1");
    expect(assertExecutionLifecycle(events, "env-1")).toHaveLength(1);
  });

  it("keeps incrementalSessionOutput: output reaches the log while the command runs, beside other commands", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-session" });
    let settled = false;
    const long = t.harness
      .execute({
        ...t.lease(lease),
        command: "/bin/bash",
        args: [
          "-c",
          "echo out-1; echo err-1 >&2; while [ ! -e /paperclip-workspace/go ]; do sleep 0.05; done; echo out-2",
        ],
      })
      .finally(() => {
        settled = true;
      });
    await expect
      .poll(() => joinedLog(t.log, "stdout") === "out-1\n" && joinedLog(t.log, "stderr") === "err-1\n", {
        timeout: 15_000,
      })
      .toBe(true);
    // Streamed while the command still runs: it waits for the file the next command writes.
    expect(settled).toBe(false);
    const control = await t.harness.execute({
      ...t.lease(lease),
      command: "touch",
      args: ["/paperclip-workspace/go"],
    });
    expect(control.exitCode).toBe(0);
    const result = await long;
    expect(result).toMatchObject({ exitCode: 0, stdout: "out-1\nout-2\n", stderr: "err-1\n" });
    // The streamed chunks are the final output exactly, so the host appends nothing to its log.
    expect(joinedLog(t.log, "stdout")).toBe(result.stdout);
    expect(joinedLog(t.log, "stderr")).toBe(result.stderr);
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
  });

  it("cuts the live log into chunks the host accepts, joined exactly", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-big" });
    const result = await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/bash",
      args: ["-c", "head -c 300000 /dev/zero | tr '\\0' a"],
    });
    expect(result.stdout).toBe("a".repeat(300_000));
    // How the output arrives (read sizes) is the scheduler's; whatever it is, no chunk is empty
    // or over the host's bound (the cut itself: src/plugin/live-log-chunks.test.ts).
    expect(t.log.every((entry) => entry.chunk.length > 0 && entry.chunk.length <= 16 * 1024)).toBe(true);
    expect(joinedLog(t.log, "stdout")).toBe(result.stdout);
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
  });

  it("reuses a paused lease: release pauses, resume checks the marker, state survives", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-2" });
    await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/sh",
      args: ["-c", "echo kept > /paperclip-workspace/state.txt"],
    });
    const stopped = await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: hostReusable(lease.metadata!),
    });
    expect(stopped).toEqual({ providerLeaseId: lease.providerLeaseId, state: "stopped" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("paused");

    const resumed = await t.harness.resumeLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId!,
      leaseMetadata: lease.metadata!,
    });
    expect(resumed.providerLeaseId).toBe(lease.providerLeaseId);
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("running");
    const read = await t.harness.execute({
      ...t.lease(resumed),
      command: "cat",
      args: ["/paperclip-workspace/state.txt"],
    });
    expect(read.stdout).toBe("kept\n");

    const destroyed = await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(destroyed).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("destroyed");
    assertEnvironmentEventOrder(t.harness.environmentEvents, [
      "acquireLease",
      "execute",
      "releaseLease",
      "resumeLease",
      "execute",
      "destroyLease",
    ]);
  });

  it("deletes, not pauses, a reuseLease lease the host will never resume (no reuse scope)", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-no-scope" });
    // The host stores `reusableSandboxLease` only for a run with a workspace and an agent.
    const receipt = await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("destroyed");
  });

  it("an unconfirmed process blocks the lease until it is destroyed, which kills the orphan", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-4" });
    fixture.emulator.faults.set({
      faults: [{ kind: "lose-create-reply", sandboxId: lease.providerLeaseId! }],
    });
    const lost = await caught(t.harness.execute({ ...t.lease(lease), command: "sleep", args: ["30"] }));
    expect(lost.message).toBe(
      "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
    );
    fixture.emulator.faults.clear();
    const orphan = fixture.emulator
      .processes()
      .find((p) => p.sandboxId === lease.providerLeaseId && p.running);
    expect(orphan).toBeDefined();

    const blocked = await caught(t.harness.execute({ ...t.lease(lease), command: "true" }));
    expect(blocked.message).toBe(
      "This CreateOS lease is blocked after an unconfirmed process outcome; destroy the lease before reusing it.",
    );
    const resume = await caught(
      t.harness.resumeLease({
        ...t.base,
        providerLeaseId: lease.providerLeaseId!,
        leaseMetadata: lease.metadata!,
      }),
    );
    expect((resume as { code?: string }).code).toBe("ERR_CREATEOS_LEASE_BLOCKED");
    expect(t.harness.environmentEvents.filter((e) => e.error !== undefined).map((e) => e.type)).toEqual([
      "execute",
      "execute",
      "resumeLease",
    ]);

    // reuseLease is on, but a blocked lease is destroyed, never paused for reuse.
    const receipt = await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });
    await expect
      .poll(() => fixture.emulator.processes().some((p) => p.id === orphan!.id && !p.treeAlive), {
        message: "orphan tree gone",
        timeout: 15_000,
      })
      .toBe(true);
  });

  it("release stops an active command and waits for its cleanup", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-5" });
    const running = sleeper(t, lease);
    await sleepersUp(t);
    const receipt = await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt?.state).toBe("destroyed");
    const error = await running;
    expect(error.message).toBe("CreateOS command was cancelled.");
    const process = fixture.emulator.processes().find((p) => p.sandboxId === lease.providerLeaseId);
    expect(process?.killedTree).toBe(true);
  });

  it("a failure after creation deletes the new sandbox", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const before = new Set(fixture.emulator.sandboxes().map((s) => s.id));
    fixture.emulator.faults.set({ faults: [{ kind: "http-status", route: "sandbox.exec", status: 500 }] });
    const error = await caught(t.harness.acquireLease({ ...t.base, runId: "run-6" }));
    expect(error.message).toBe("CreateOS request failed (HTTP 500) during workspace command.");
    const created = fixture.emulator.sandboxes().filter((s) => !before.has(s.id));
    expect(created.map((s) => s.status)).toEqual(["destroyed"]);
  });

  it("probe reports a bad key without throwing", async () => {
    const t = await pluginUnderTest(fixture.emulator, { apiKey: "wrong-key" });
    const probe = await t.harness.probe(t.base);
    expect(probe.ok).toBe(false);
    expect(probe.diagnostics?.[0]).toMatchObject({
      code: "ERR_CREATEOS_HTTP_STATUS",
      message: "CreateOS request failed (HTTP 401) during sandbox lifecycle.",
    });
  });

  it("probe runs a managed process (a broken output stream fails it) and deletes its sandbox", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const before = new Set(fixture.emulator.sandboxes().map((s) => s.id));
    // /exec still works: only the path every command takes is broken.
    fixture.emulator.faults.set({ faults: [{ kind: "http-status", route: "process.connect", status: 403 }] });
    const probe = await t.harness.probe(t.base);
    fixture.emulator.faults.clear();
    expect(probe.ok).toBe(false);
    expect(probe.summary).toBe("CreateOS request failed (HTTP 403) during output connection.");
    const created = fixture.emulator.sandboxes().filter((s) => !before.has(s.id));
    expect(created.map((s) => s.status)).toEqual(["destroyed"]);
  });

  it("release stops every active command of the lease, and only of that lease", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const a = await t.harness.acquireLease({ ...t.base, runId: "run-a" });
    const b = await t.harness.acquireLease({ ...t.base, runId: "run-b" });
    const onA = [sleeper(t, a), sleeper(t, a)];
    const onB = t.harness.execute({
      ...t.lease(b),
      command: "/bin/bash",
      args: ["-c", "sleep 0.5; echo b-done"],
    });
    await sleepersUp(t, 2);
    await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: a.providerLeaseId,
      leaseMetadata: a.metadata!,
    });
    for (const outcome of await Promise.all(onA))
      expect(outcome.message).toBe("CreateOS command was cancelled.");
    expect((await onB).stdout).toBe("b-done\n");
    const killed = fixture.emulator.processes().filter((p) => p.sandboxId === a.providerLeaseId);
    expect(killed).toHaveLength(2);
    expect(killed.every((p) => p.killedTree || !p.treeAlive)).toBe(true);
    await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: b.providerLeaseId,
      leaseMetadata: b.metadata!,
    });
  });

  it("rejects an invalid config in every hook", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const validation = await t.harness.validateConfig({
      driverKey: "createos",
      config: { apiUrl: "http://example.test" },
    });
    expect(validation.ok).toBe(false);
    const error = await caught(
      t.harness.acquireLease({ ...t.base, config: { apiUrl: "ftp://x" }, runId: "r" }),
    );
    expect((error as { code?: string }).code).toBe("ERR_CREATEOS_INVALID_CONFIG");
  });

  it("shutdown cancels active commands, awaits them, and refuses new work; health reports it", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const d = t.plugin.definition;
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-7" });
    expect(await d.onHealth!()).toMatchObject({
      status: "ok",
      details: { activeCommands: 0, blockedLeases: 0 },
    });
    const running = sleeper(t, lease);
    await sleepersUp(t);
    expect(await d.onHealth!()).toMatchObject({ details: { activeCommands: 1 } });
    await d.onShutdown!();
    const error = await running;
    expect((error as { code?: string }).code).toBe("ERR_CREATEOS_CANCELLED");
    expect(fixture.emulator.processes().find((p) => p.sandboxId === lease.providerLeaseId)?.killedTree).toBe(
      true,
    );
    const refused = await caught(t.harness.execute({ ...t.lease(lease), command: "true" }));
    expect(refused.message).toBe("CreateOS plugin is shutting down.");
    expect(refused.code).toBe("ERR_CREATEOS_SHUTTING_DOWN");
    expect((await d.onHealth!()).status).toBe("error");
  });
});

describe("package surface", () => {
  it("createPlugin returns what the SDK's definePlugin returns", () => {
    const ours = createPlugin();
    const sdk = definePlugin(ours.definition);
    expect(Object.isFrozen(ours)).toBe(true);
    expect(Object.keys(ours)).toEqual(Object.keys(sdk));
    expect(sdk.definition).toBe(ours.definition);
  });

  it("the test config helper is valid config", () => {
    expect(Object.keys(emulatorConfig(fixture.emulator)).sort()).toContain("apiKey");
  });
});
