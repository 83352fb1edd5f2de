import { describe, expect, it } from "vitest";
import type { EmulatorProcess } from "../src/emulator-process.js";
import type { AdapterCheck, Environment, HostApi, Lease } from "../src/host-api.js";
import { useHostFixture } from "../src/host-fixture.js";
import { createCreateosEnvironment, probeDraftConfig, SHAPE } from "../src/plugin-steps.js";
import { waitFor } from "../src/process-group.js";

let emulator: EmulatorProcess | undefined;
let api: HostApi;
let companyId = "";
let environment: Environment;
const host = useHostFixture("bwrap", async (started) => {
  emulator = started.emulator;
  api = started.api;
});
const step = <T>(name: string, work: () => Promise<T>): Promise<T> => host.step(name, work);

describe("the CreateOS plugin inside the real Paperclip server (Node 24)", () => {
  it("installs from its unpacked tarball by local path and reaches ready", async () => {
    const plugin = await host.installPlugin();
    expect(plugin.pluginKey).toBe("paperclip.createos-sandbox-provider");
    expect(plugin.status).toBe("ready");
  });

  it("stores the environment's apiKey as a secret, not in plaintext", async () => {
    const e = emulator as EmulatorProcess;
    await step("create a company and a createos environment", async () => {
      const company = await api.post<{ id: string }>("/companies", { name: "CreateOS E2E" });
      companyId = company.id;
      environment = await createCreateosEnvironment(api, companyId, e, "createos-emulator");
    });
    expect(environment.config).toMatchObject({ provider: "createos", apiUrl: e.url, timeoutMs: 120_000 });
    expect(environment.config.apiKey).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(JSON.stringify(await api.get(`/environments/${environment.id}`))).not.toContain(e.apiKey);
  });

  it("refuses a misspelt config key when saving, with the plugin's message", async () => {
    const e = emulator as EmulatorProcess;
    const refused = await api
      .post(`/companies/${companyId}/environments`, {
        name: "createos-typo",
        driver: "sandbox",
        config: { provider: "createos", apiUrl: e.url, apiKey: e.apiKey, shape: SHAPE, shpae: "large" },
      })
      .then(
        () => "saved",
        (error: Error) => error.message,
      );
    expect(refused).toMatch(/HTTP 422 .*unknown key \\"shpae\\" \(did you mean \\"shape\\"\?\)/);
  });

  it("probes an unsaved config through the plugin's own probe (create, /bin/echo, delete)", async () => {
    const e = emulator as EmulatorProcess;
    const probe = await step("POST /api/companies/:id/environments/probe-config", () =>
      probeDraftConfig(api, companyId, e),
    );
    expect(probe).toMatchObject({
      ok: true,
      summary: "CreateOS sandbox creation and command execution succeeded.",
    });
  });

  it("probes through a real lease (acquire and release with the host's archiveOnRelease)", async () => {
    const probe = await step("POST /api/environments/:id/probe", () =>
      api.post<{ ok: boolean; details: { providerLeaseId: string; metadata: Record<string, unknown> } }>(
        `/environments/${environment.id}/probe?companyId=${companyId}`,
        { companyId },
      ),
    );
    expect(probe.ok).toBe(true);
    expect(probe.details.metadata).toMatchObject({ archiveOnRelease: true, provider: "createos" });
    expect(await (emulator as EmulatorProcess).sandboxStatus(probe.details.providerLeaseId)).toBe(
      "destroyed",
    );
  });

  it("runs commands through the host's execute path and checks their output", async () => {
    const testEnvironment = (adapterConfig: Record<string, unknown>) =>
      step("POST /api/companies/:id/adapters/kimi_local/test-environment", () =>
        api.post<{ checks: AdapterCheck[] }>(`/companies/${companyId}/adapters/kimi_local/test-environment`, {
          environmentId: environment.id,
          adapterConfig: { engine: "cli", ...adapterConfig },
        }),
      );
    const byCode = (checks: AdapterCheck[]) => new Map(checks.map((check) => [check.code, check]));

    // `mkdir -p` and `test -d` of the workspace, then `command -v sh`, inside the sandbox.
    const present = byCode((await testEnvironment({ command: "sh" })).checks);
    expect(present.get("kimi_cwd_valid")?.message).toBe("Working directory is valid: /paperclip-workspace");
    expect(present.get("kimi_install_command_run")?.message).toBe("sh already on PATH; skipped install.");
    expect(present.get("kimi_command_resolvable")?.message).toBe("Command is executable: sh");

    // A missing CLI: the host runs its installer in the sandbox (npm, kept offline by the
    // adapter env) and reports the command's exit status and its stderr, as streamed back.
    const missing = byCode(
      (await testEnvironment({ command: "kimi", env: { npm_config_offline: "true" } })).checks,
    );
    expect(missing.get("kimi_install_command_run")).toMatchObject({ level: "warn" });
    expect(missing.get("kimi_install_command_run")?.message).toMatch(/^Install command exited 1: /);
    expect(missing.get("kimi_install_command_run")?.detail).toMatch(/npm error code ENOTCACHED/);
    expect(missing.get("kimi_command_unresolvable")?.level).toBe("error");
  });

  it("shows the plugin's message when a process tree could not be killed (termination unconfirmed)", async () => {
    const e = emulator as EmulatorProcess;
    // Every output stream refused (not retried) and every kill failing: the first command the
    // host runs (the workspace `mkdir`) fails, and its process cannot be confirmed dead.
    await e.armFaults([
      { kind: "http-status", route: "process.connect", status: 403, times: "always" },
      { kind: "http-status", route: "process.kill", status: 503, times: "always" },
    ]);
    try {
      const result = await step("POST /api/companies/:id/adapters/kimi_local/test-environment", () =>
        api.post<{ checks: AdapterCheck[] }>(`/companies/${companyId}/adapters/kimi_local/test-environment`, {
          environmentId: environment.id,
          adapterConfig: { engine: "cli", command: "sh" },
        }),
      );
      const cwd = result.checks.find((check) => check.code === "kimi_cwd_invalid");
      expect(cwd?.level).toBe("error");
      expect(cwd?.message).toContain("CreateOS command cleanup failed; process termination is unconfirmed.");
    } finally {
      await e.clearFaults();
    }
  });

  it("released every lease it took, and no sandbox is left in the emulator", async () => {
    const e = emulator as EmulatorProcess;
    // The adapter-test route answers first and ends its lease right after.
    const leases = await step("every lease ends", () =>
      waitFor(
        "every lease has a cleanup status",
        async () => {
          const current = await api.get<Lease[]>(`/environments/${environment.id}/leases`);
          return current.every((lease) => lease.cleanupStatus !== null) ? current : undefined;
        },
        { timeoutMs: 60_000 },
      ),
    );
    // One probe and three adapter tests, each on a lease of its own (a blocked one is deleted on release).
    expect(leases).toHaveLength(4);
    for (const lease of leases) {
      expect(lease.cleanupStatus, `lease ${lease.id}`).toBe("success");
      expect(["released", "failed"]).toContain(lease.status);
      expect(await e.sandboxStatus(lease.providerLeaseId ?? "")).toBe("destroyed");
    }
    expect(await e.sandboxDirectories()).toEqual([]);
    const health = await api.get<{ status: string; healthy: boolean }>(`/plugins/${host.plugin?.id}/health`);
    expect(health).toMatchObject({ status: "ready", healthy: true });
  });
});
