import { describe, expect, it } from "vitest";
import { normalizedConfig, parseConfig, requireConfig } from "./plugin-config.js";

const SHAPE = "s-1vcpu-1gb";

describe("parseConfig", () => {
  it("applies defaults", () => {
    const parsed = parseConfig({ apiKey: "k", shape: SHAPE }, {});
    expect(parsed).toMatchObject({
      ok: true,
      config: {
        apiUrl: "https://api.sb.createos.sh",
        shape: SHAPE,
        reuseLease: false,
        requestsPerMinute: 240,
        burst: 20,
      },
    });
  });

  it("lists every problem without quoting the key", () => {
    const parsed = parseConfig(
      {
        apiUrl: "http://example.test",
        apiKey: "sec ret",
        shape: 5,
        reuseLease: "yes",
        burst: 0,
        regoin: "eu",
      },
      {},
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      'unknown key "regoin" (did you mean "region"?)',
      "shape must be a string",
      "CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.",
      "apiKey has characters a header cannot carry",
      "burst must be an integer from 1 to 10000",
      "reuseLease must be a boolean",
    ]);
    expect(JSON.stringify(parsed)).not.toContain("sec ret");
  });

  it("needs an explicit key for a custom origin", () => {
    expect(parseConfig({ apiUrl: "http://127.0.0.1:9", shape: SHAPE }, { CREATEOS_API_KEY: "x" })).toEqual({
      ok: false,
      problems: ["apiKey is required for a custom apiUrl"],
    });
    expect(parseConfig({ shape: SHAPE }, { CREATEOS_API_KEY: "x" }).ok).toBe(true);
  });

  it.each([undefined, null, ""])("refuses a missing shape (%j) with upstream's message", (shape) => {
    expect(parseConfig({ apiKey: "k", shape }, {})).toEqual({
      ok: false,
      problems: ["CreateOS requires a shape from its shape catalog."],
    });
  });

  it("warns on saving a shape outside the catalog; a hook takes it as is", () => {
    expect(parseConfig({ apiKey: "k", shape: "small" }, {})).toMatchObject({
      ok: true,
      warnings: ['shape "small" is not in the CreateOS shape catalog (s-0.25vcpu-512mb … s-8vcpu-16gb)'],
    });
    expect(parseConfig({ apiKey: "k", shape: "small" }, {}, "runtime")).toMatchObject({
      ok: true,
      warnings: [],
      config: { shape: "small" },
    });
  });

  it("warns above the service rate limit", () => {
    const parsed = parseConfig({ apiKey: "k", shape: SHAPE, requestsPerMinute: 1000 }, {});
    expect(parsed.ok && parsed.warnings).toEqual([
      "requestsPerMinute above 300 exceeds the CreateOS rate limit",
    ]);
  });
});

describe("upstream's timeoutMs", () => {
  it("defaults to 300000 and keeps an integer from 1 to 86400000", () => {
    expect(parseConfig({ apiKey: "k", shape: SHAPE }, {})).toMatchObject({
      ok: true,
      config: { timeoutMs: 300_000 },
    });
    for (const timeoutMs of [1, 86_400_000]) {
      expect(parseConfig({ apiKey: "k", shape: SHAPE, timeoutMs }, {})).toMatchObject({
        ok: true,
        config: { timeoutMs },
      });
    }
  });

  it.each([0, 86_400_001, 1.5, "300", -1])("refuses %j with upstream's message", (timeoutMs) => {
    expect(parseConfig({ apiKey: "k", shape: SHAPE, timeoutMs }, {})).toEqual({
      ok: false,
      problems: ["timeoutMs must be an integer between 1 and 86400000."],
    });
  });
});

describe("keys the plugin does not read", () => {
  const hostAdded = {
    apiKey: "k",
    shape: SHAPE,
    provider: "createos",
    reuseLease: false,
    archiveOnRelease: true,
    streamRunLogs: true,
    runnerLifecycleMode: "warm",
    runnerIdleTimeoutMs: 60_000,
    agentId: "agent-1",
    sandboxId: "sbx_1",
    companyId: "company-1",
    environmentId: "env-1",
    apiOrigin: "https://api.sb.createos.sh",
    marker: "ab".repeat(32),
    workspacePath: "/paperclip-workspace",
    rootfs: null,
    region: null,
    sandboxLeaseAcquisition: { outcome: "created" },
    resumedLease: true,
  };

  it("the host's flags and the lease record pass validation silently", () => {
    expect(parseConfig(hostAdded, {})).toMatchObject({ ok: true, warnings: [] });
  });

  it("a foreign key is a warning at validation, and a hook ignores it", () => {
    expect(parseConfig({ apiKey: "k", shape: SHAPE, dashboardUrl: "x" }, {})).toMatchObject({
      ok: true,
      warnings: ['unknown key "dashboardUrl" is ignored'],
    });
    expect(parseConfig({ apiKey: "k", shape: SHAPE, dashboardUrl: "x" }, {}, "runtime")).toMatchObject({
      ok: true,
      warnings: [],
    });
  });

  it("a misspelt key fails validation only; a hook ignores it", () => {
    expect(parseConfig({ apiKey: "k", shape: SHAPE, timeoutMS: 5 }, {})).toEqual({
      ok: false,
      problems: ['unknown key "timeoutMS" (did you mean "timeoutMs"?)'],
    });
    expect(requireConfig({ apiKey: "k", shape: SHAPE, timeoutMS: 5 }, {})).toMatchObject({
      timeoutMs: 300_000,
    });
  });

  it("the normalized config keeps the host's flags and every plugin default", () => {
    const parsed = parseConfig(hostAdded, {});
    if (!parsed.ok) throw new Error("expected a valid config");
    const normalized = normalizedConfig(parsed.config, hostAdded);
    expect(normalized).toMatchObject({
      archiveOnRelease: true,
      streamRunLogs: true,
      runnerLifecycleMode: "warm",
      runnerIdleTimeoutMs: 60_000,
      timeoutMs: 300_000,
      shape: SHAPE,
    });
    expect(normalized).not.toHaveProperty("marker");
    expect(normalized).not.toHaveProperty("provider");
  });
});

describe("requireConfig", () => {
  it("throws the coded error with the problems", () => {
    expect(() => requireConfig({ shape: "", apiKey: "k", region: "bad region" }, {})).toThrow(
      expect.objectContaining({
        code: "ERR_CREATEOS_INVALID_CONFIG",
        message:
          "CreateOS environment config is invalid: region must be 1-200 name characters; CreateOS requires a shape from its shape catalog.",
      }),
    );
  });
});
