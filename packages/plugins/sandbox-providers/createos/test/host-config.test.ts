import { caught } from "@paperclipai/errors/testing";
import type { PluginEnvironmentLease } from "@paperclipai/plugin-sdk";
import { describe, expect, it } from "vitest";
import { RUNNING_COMMAND_DEADLINE_MS } from "./support/command-deadline.js";
import { useTestEmulator } from "./support/emulator-fixture.js";
import type { PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

const fixture = useTestEmulator();

/**
 * The config the real host (2026.916.1) passes to execute, release and destroy: the stored
 * environment config with the lease record merged over it (`sandboxConfigFromLeaseMetadataLoose`),
 * its internal keys dropped and `provider`/`streamRunLogs` stripped.
 */
function hostRuntimeConfig(stored: Record<string, unknown>, lease: PluginEnvironmentLease) {
  return {
    ...stored,
    agentId: "agent-1",
    ...lease.metadata,
    reuseLease: stored.reuseLease === true,
    runnerLifecycleMode: "per_turn",
  };
}

async function health(t: PluginUnderTest) {
  const diagnostics = await t.plugin.definition.onHealth!();
  return diagnostics as { status: string; details: { unendedSandboxes: unknown[] } };
}

describe("the config the Paperclip host passes", () => {
  it("is accepted by every hook, with the host's flags and the lease record in it", async () => {
    const t = await pluginUnderTest(fixture.emulator, { timeoutMs: 120_000 });
    // What the host saves: its zod envelope adds `reuseLease: false`; the user set `archiveOnRelease`.
    const saved = { ...t.base.config, reuseLease: false, archiveOnRelease: false };
    const validation = await t.harness.validateConfig({ driverKey: "createos", config: saved });
    expect(validation.ok).toBe(true);
    expect(validation.warnings?.filter((warning) => warning.startsWith("unknown key"))).toEqual([]);
    expect(validation.normalizedConfig).toMatchObject({
      timeoutMs: 120_000,
      reuseLease: false,
      archiveOnRelease: false,
    });
    // Probe and test leases: the host forces `reuseLease: false, archiveOnRelease: true`.
    const acquireConfig = { ...saved, reuseLease: false, archiveOnRelease: true };
    const lease = await t.harness.acquireLease({ ...t.base, config: acquireConfig, runId: "run-1" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("running");

    const runtimeConfig = hostRuntimeConfig(acquireConfig, lease);
    expect(Object.keys(runtimeConfig)).toEqual(
      expect.arrayContaining(["marker", "sandboxId", "apiOrigin", "companyId", "workspacePath", "agentId"]),
    );
    const result = await t.harness.execute({
      ...t.base,
      config: runtimeConfig,
      lease,
      command: "/bin/sh",
      args: ["-c", "printf 'hello %s' \"$(cat .paperclip-runtime/.paperclip-createos-lease | wc -c)\""],
      cwd: "/paperclip-workspace",
    });
    // The lease's 64-character marker file is in the workspace the command ran in.
    expect(result).toMatchObject({ exitCode: 0, stdout: "hello 64" });

    const receipt = await t.harness.releaseLease({
      ...t.base,
      config: runtimeConfig,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("destroyed");
  });

  it("tells about a misspelt key at validation, and a hook ignores it", async () => {
    const t = await pluginUnderTest(fixture.emulator, { shpae: "large", dashboardUrl: "https://x.test" });
    const validation = await t.harness.validateConfig({ driverKey: "createos", config: t.base.config });
    expect(validation).toEqual({ ok: false, errors: ['unknown key "shpae" (did you mean "shape"?)'] });
    const probe = await t.harness.probe(t.base);
    expect(probe.ok).toBe(true);
  });

  it("runs a command the host sends without a deadline under upstream's timeoutMs", async () => {
    const t = await pluginUnderTest(fixture.emulator, { timeoutMs: RUNNING_COMMAND_DEADLINE_MS });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-1" });
    const result = await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/sh",
      args: ["-c", "echo started; exec sleep 30"],
    });
    expect(result).toMatchObject({ exitCode: null, timedOut: true, stdout: "started\n" });
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
  });
});

describe("deadlines longer than a Node timer can hold", () => {
  // The host clamps its own waits to 2^31-1 ms (`plugin-worker-manager.js`,
  // `resolveRpcCallTimeoutMs`); a Node timer given more fires after 1 ms instead.
  const PAST_TIMER_RANGE_MS = 3_000_000_000;

  it("an acquire, a command and a post-upload command run to their end", async () => {
    // `bridgeRequestTimeoutMs` is the host's key, which it does not bound: it sets the limit of an acquire and a sync.
    const t = await pluginUnderTest(fixture.emulator, { bridgeRequestTimeoutMs: PAST_TIMER_RANGE_MS });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-1" });
    // The adapter's `timeoutSec * 1000`, which nothing bounds either (`execution-target.js`).
    const result = await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/echo",
      args: ["in time"],
      timeoutMs: PAST_TIMER_RANGE_MS,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: "in time\n" });
    const synced = await t.sync.in({
      ...t.lease(lease),
      operations: [
        {
          operationId: "op-1",
          files: [],
          postUploadCommands: [{ command: "echo done > synced.txt", timeoutMs: PAST_TIMER_RANGE_MS }],
        },
      ],
    });
    expect(synced.operations).toEqual([{ operationId: "op-1", filesTransferred: 0, bytesTransferred: 0 }]);
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
  });
});

describe("the host's cleanup sweep after its environment was deleted", () => {
  it("destroys the lease sent with an empty environment id, as the lease record names it", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-1" });
    // `retryPendingSandboxTeardown` (`environment-runtime.js`): the lease row's environment id
    // is set null when its environment is deleted, and the host then sends "" ("only context").
    const receipt = await t.harness.destroyLease({
      ...t.base,
      environmentId: "",
      config: hostRuntimeConfig(t.base.config, lease),
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: { ...lease.metadata, sandboxProviderPlugin: true, pluginId: "plugin-1" },
    });
    expect(receipt).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("destroyed");
  });

  it("still refuses a lease of another company or another environment", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-1" });
    const end = { ...t.base, providerLeaseId: lease.providerLeaseId, leaseMetadata: lease.metadata! };
    for (const scope of [
      { companyId: "company-2", environmentId: "" },
      { companyId: "company-1", environmentId: "env-2" },
    ]) {
      const error = await caught(t.harness.destroyLease({ ...end, ...scope }));
      expect(error.code).toBe("ERR_CREATEOS_LEASE_MISMATCH");
    }
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("running");
    await t.harness.destroyLease(end);
  });
});

describe("ending a sandbox never fails silently", () => {
  it("a release whose delete fails is a coded error, and the sandbox is marked until destroyed", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-1" });
    const end = { ...t.base, providerLeaseId: lease.providerLeaseId, leaseMetadata: lease.metadata! };
    fixture.emulator.faults.set({ faults: [{ kind: "http-status", route: "sandbox.delete", status: 403 }] });

    const error = await caught(t.harness.releaseLease(end));
    expect(error.code).toBe("ERR_CREATEOS_SANDBOX_NOT_ENDED");
    expect(error.message).toBe(
      `CreateOS sandbox ${lease.providerLeaseId} could not be ended during release; it may still be running.`,
    );
    expect(error.details).toMatchObject({ sandboxId: lease.providerLeaseId, operation: "release" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("running");
    // The host never reads health and drops release errors: its log gets a warning, keyless.
    const warnings = t.harness.logs.filter((entry) => entry.level === "warn");
    expect(warnings).toEqual([
      {
        level: "warn",
        message: `CreateOS sandbox ${lease.providerLeaseId} could not be ended during release; it may still be running and billing. Delete it in CreateOS.`,
        meta: {
          sandboxId: lease.providerLeaseId,
          operation: "release",
          failure: {
            code: "ERR_CREATEOS_HTTP_STATUS",
            message: "CreateOS request failed (HTTP 403) during sandbox lifecycle.",
          },
        },
      },
    ]);
    expect(JSON.stringify(t.harness.logs)).not.toContain(fixture.emulator.apiKey);
    expect(await health(t)).toMatchObject({
      status: "degraded",
      details: { unendedSandboxes: [{ sandboxId: lease.providerLeaseId, operation: "release" }] },
    });
    // The host's cleanup retry destroys it; the mark goes with it.
    expect(await t.harness.destroyLease(end)).toEqual({
      providerLeaseId: lease.providerLeaseId,
      state: "destroyed",
    });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("destroyed");
    expect(await health(t)).toMatchObject({ status: "ok", details: { unendedSandboxes: [] } });
  });

  it("a failed acquire whose rollback fails names both failures and marks the sandbox", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const before = new Set(fixture.emulator.sandboxes().map((s) => s.id));
    fixture.emulator.faults.set({
      faults: [
        { kind: "http-status", route: "files.put", status: 403 },
        { kind: "http-status", route: "sandbox.delete", status: 403 },
      ],
    });
    const error = await caught(t.harness.acquireLease({ ...t.base, runId: "run-1" }));
    const leaked = fixture.emulator.sandboxes().find((s) => !before.has(s.id));
    expect(error.code).toBe("ERR_CREATEOS_ACQUIRE_ROLLBACK_FAILED");
    expect(error.message).toBe(`CreateOS setup failed and cleanup is unconfirmed for sandbox ${leaked?.id}.`);
    expect(error.details).toMatchObject({
      primary: {
        code: "ERR_CREATEOS_HTTP_STATUS",
        message: "CreateOS request failed (HTTP 403) during file transfer.",
      },
      failure: { code: "ERR_CREATEOS_HTTP_STATUS" },
    });
    expect(leaked?.status).toBe("running");
    expect(t.harness.logs).toEqual([
      expect.objectContaining({
        level: "warn",
        meta: expect.objectContaining({ sandboxId: leaked?.id, operation: "acquire rollback" }),
      }),
    ]);
    expect(await health(t)).toMatchObject({
      status: "degraded",
      details: { unendedSandboxes: [{ sandboxId: leaked?.id, operation: "acquire rollback" }] },
    });
  });

  it("a failed acquire whose rollback works rethrows the acquire's own error", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const before = new Set(fixture.emulator.sandboxes().map((s) => s.id));
    fixture.emulator.faults.set({ faults: [{ kind: "http-status", route: "files.put", status: 403 }] });
    const error = await caught(t.harness.acquireLease({ ...t.base, runId: "run-1" }));
    expect(error.code).toBe("ERR_CREATEOS_HTTP_STATUS");
    expect(fixture.emulator.sandboxes().find((s) => !before.has(s.id))?.status).toBe("destroyed");
    expect(await health(t)).toMatchObject({ status: "ok" });
  });

  it("a probe whose sandbox cannot be deleted fails, with the coded error", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    fixture.emulator.faults.set({ faults: [{ kind: "http-status", route: "sandbox.delete", status: 403 }] });
    const probe = await t.harness.probe(t.base);
    expect(probe.ok).toBe(false);
    expect(probe.diagnostics).toEqual([
      expect.objectContaining({ severity: "error", code: "ERR_CREATEOS_SANDBOX_NOT_ENDED" }),
    ]);
    expect(probe.summary).toMatch(/could not be ended during probe cleanup/);
  });
});
