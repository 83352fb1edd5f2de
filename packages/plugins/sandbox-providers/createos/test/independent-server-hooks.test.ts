/**
 * The plugin, as a downstream user loads it (the built package), through its environment
 * hooks as the host drives them, against an independent CreateOS-compatible server that
 * shares no code with the package's emulator: leases acquired, resumed, released and
 * destroyed, and commands run on them.
 */
import { PaperclipError } from "@paperclipai/errors";
import type { PluginEnvironmentLease } from "@paperclipai/plugin-sdk";
import { createEnvironmentTestHarness } from "@paperclipai/plugin-sdk/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { createPlugin, manifest } from "../dist/index.js";
import type { IndependentServer } from "./support/independent-server.js";
import { JOURNAL, type Run, script, useIndependentServer } from "./support/independent-server-suite.js";
import { hostReusable } from "./support/plugin-harness.js";

const independent = useIndependentServer();
let server: IndependentServer;
let baseline: Run;

// Read before each test: the server and the baseline exist only once the shared beforeAll has run.
beforeEach(() => {
  server = independent.server();
  baseline = independent.baseline();
});

describe("through the plugin's hooks, as the host drives them", () => {
  async function pluginOnServer() {
    const plugin = createPlugin({ env: {} });
    const d = plugin.definition;
    const harness = createEnvironmentTestHarness({
      manifest,
      environmentDriver: {
        driverKey: "createos",
        onValidateConfig: (params) => d.onEnvironmentValidateConfig!(params),
        onAcquireLease: (params) => d.onEnvironmentAcquireLease!(params),
        onResumeLease: (params) => d.onEnvironmentResumeLease!(params),
        onReleaseLease: (params) => d.onEnvironmentReleaseLease!(params),
        onDestroyLease: (params) => d.onEnvironmentDestroyLease!(params),
        onExecute: (params) => d.onEnvironmentExecute!(params),
      },
    });
    const log: Array<[string, string]> = [];
    harness.ctx.execution = { log: (stream, chunk) => log.push([stream, chunk]) };
    await d.setup(harness.ctx);
    const base = {
      driverKey: "createos",
      companyId: "company-i",
      environmentId: "env-i",
      config: {
        apiUrl: server.url,
        apiKey: server.apiKey,
        shape: "s-2vcpu-4gb",
        requestsPerMinute: 60_000,
        burst: 1_000,
        heartbeatTimeoutMs: 400,
        reconnectAttempts: 3,
        backoffBaseMs: 10,
        backoffCapMs: 80,
        lifecycleTimeoutMs: 5_000,
        requestTimeoutMs: 5_000,
      },
    };
    const lease = async (): Promise<PluginEnvironmentLease> =>
      harness.acquireLease({ ...base, runId: "run-i" });
    return { plugin, harness, log, base, lease };
  }

  it("a drop and a 503 mid-run: the host log is the fault-free chunk list", async () => {
    const t = await pluginOnServer();
    server.use(script());
    server.reset();
    const lease = await t.lease();
    server.use(
      script({
        connect: (attempt) =>
          attempt === 2 ? { until: 11, exit: false, end: "reset", framing: { split: "bytes" } } : {},
        faults: { "process.connect": [{ status: 503 }] },
      }),
    );
    const result = await t.harness.execute({ ...t.base, lease, command: "/usr/bin/chatty" });
    expect(result).toMatchObject({ exitCode: 3, stdout: JOURNAL.stdout, stderr: JOURNAL.stderr });
    expect(t.log).toEqual(baseline.log);
    const receipt = await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });
    await t.plugin.definition.onShutdown?.();
  });

  it("reuseLease: release pauses (old state read after the POST), resume checks the marker and runs", async () => {
    const t = await pluginOnServer();
    const config = { ...t.base.config, reuseLease: true };
    server.use(script());
    server.reset();
    const lease = await t.harness.acquireLease({ ...t.base, config, runId: "run-r" });
    const leaseParams = {
      ...t.base,
      config,
      providerLeaseId: lease.providerLeaseId!,
      leaseMetadata: hostReusable(lease.metadata!),
    };
    expect(await t.harness.releaseLease(leaseParams)).toEqual({
      providerLeaseId: lease.providerLeaseId,
      state: "stopped",
    });
    const resumed = await t.harness.resumeLease(leaseParams);
    expect(resumed.providerLeaseId).toBe(lease.providerLeaseId);
    const result = await t.harness.execute({ ...t.base, config, lease: resumed, command: "/usr/bin/chatty" });
    expect(result.stdout).toBe(JOURNAL.stdout);
    expect(server.count("sandbox.pause")).toBe(1);
    expect(server.count("sandbox.resume")).toBe(1);
    // The marker is read back with `/bin/cat` through exec, as upstream reads it.
    expect(server.count("files.get")).toBe(0);
    expect(server.count("sandbox.delete")).toBe(0);
    await t.plugin.definition.onShutdown?.();
  });

  it("an invalid sandbox id from the create is refused before it reaches a path", async () => {
    const t = await pluginOnServer();
    server.use(script({ sandboxId: "sb/../../admin" }));
    server.reset();
    const error = await t.lease().then(
      () => undefined,
      (reason: unknown) => reason as PaperclipError,
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_INVALID_RESOURCE_ID")).toBe(true);
    expect(error?.message).toBe("CreateOS returned an invalid resource ID.");
    expect(server.seen.map((r) => r.route)).toEqual(["sandbox.create"]);
    await t.plugin.definition.onShutdown?.();
  });

  it("a lost process-create reply blocks the lease until it is destroyed", async () => {
    const t = await pluginOnServer();
    server.use(script());
    server.reset();
    const lease = await t.lease();
    server.use(script({ faults: { "process.create": ["destroy"] } }));
    const first = await t.harness.execute({ ...t.base, lease, command: "/usr/bin/chatty" }).then(
      () => undefined,
      (error: unknown) => error as PaperclipError,
    );
    expect(PaperclipError.is(first, "ERR_CREATEOS_PROCESS_UNCONFIRMED")).toBe(true);
    expect(first?.message).toBe(
      "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
    );
    expect(server.count("process.create")).toBe(1);
    const second = await t.harness.execute({ ...t.base, lease, command: "/usr/bin/chatty" }).then(
      () => undefined,
      (error: unknown) => error as PaperclipError,
    );
    expect(PaperclipError.is(second, "ERR_CREATEOS_LEASE_BLOCKED")).toBe(true);
    expect(server.count("process.create")).toBe(1);
    const receipt = await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt?.state).toBe("destroyed");
    expect(server.count("sandbox.delete")).toBe(1);
    await t.plugin.definition.onShutdown?.();
  });

  it.each([
    ["destroyed", false],
    ["gone (404)", true],
  ])(
    "a sandbox %s behind the plugin's back: resume answers expired and deletes nothing",
    async (_name, forget) => {
      const t = await pluginOnServer();
      const config = { ...t.base.config, reuseLease: true };
      server.use(script());
      server.reset();
      const lease = await t.harness.acquireLease({ ...t.base, config, runId: "run-d" });
      const leaseParams = {
        ...t.base,
        config,
        providerLeaseId: lease.providerLeaseId!,
        leaseMetadata: hostReusable(lease.metadata!),
      };
      expect((await t.harness.releaseLease(leaseParams))?.state).toBe("stopped");
      server.deleteBehindPlugin(lease.providerLeaseId!, forget);
      expect(await t.harness.resumeLease(leaseParams)).toEqual({
        providerLeaseId: null,
        metadata: { expired: true },
      });
      expect(server.count("sandbox.delete")).toBe(0);
      await t.plugin.definition.onShutdown?.();
    },
  );

  it("stdin is removed from the sandbox after the command; a kill failure reaches the host's text", async () => {
    const t = await pluginOnServer();
    server.use(script());
    server.reset();
    const lease = await t.lease();
    const id = lease.providerLeaseId!;
    await t.harness.execute({ ...t.base, lease, command: "/usr/bin/chatty", stdin: "a secret prompt" });
    expect(server.filePaths(id).filter((path) => path.startsWith("/tmp/paperclip-stdin-"))).toEqual([]);
    server.use(
      script({ connect: () => ({ answer: { status: 503 } }), faults: { "process.kill": [{ status: 500 }] } }),
    );
    const failed = await t.harness
      .execute({ ...t.base, lease, command: "/usr/bin/chatty", stdin: "again" })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(failed?.message).toBe("CreateOS command cleanup failed; process termination is unconfirmed.");
    expect(server.filePaths(id).filter((path) => path.startsWith("/tmp/paperclip-stdin-"))).toEqual([]);
    await t.plugin.definition.onShutdown?.();
  });

  it("a lease with a guaranteed expiry and a shape outside the catalog are refused", async () => {
    const t = await pluginOnServer();
    server.use(script());
    server.reset();
    const refused = await t.harness
      .acquireLease({ ...t.base, runId: "run-x", requestedExpiresAt: "2026-09-08T12:00:00Z" })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(refused?.message).toBe(
      "CreateOS does not yet support leases with a guaranteed expiration deadline.",
    );
    expect(server.seen).toEqual([]);
    const small = await t.harness
      .acquireLease({ ...t.base, config: { ...t.base.config, shape: "small" }, runId: "run-s" })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(small?.message).toBe("CreateOS request failed (HTTP 400) during sandbox lifecycle.");
    await t.plugin.definition.onShutdown?.();
  });
});
