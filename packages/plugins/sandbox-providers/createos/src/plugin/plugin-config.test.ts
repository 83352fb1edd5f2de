import { describe, expect, it } from "vitest";
import { parseConfig, requireConfig } from "./plugin-config.js";

describe("parseConfig", () => {
  it("applies defaults", () => {
    const parsed = parseConfig({ apiKey: "k" }, {});
    expect(parsed).toMatchObject({
      ok: true,
      config: {
        apiUrl: "https://api.sb.createos.sh",
        shape: "small",
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
        extra: true,
      },
      {},
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      'unknown key "extra"',
      "shape must be a string",
      "CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.",
      "apiKey has characters a header cannot carry",
      "burst must be an integer from 1 to 10000",
      "reuseLease must be a boolean",
    ]);
    expect(JSON.stringify(parsed)).not.toContain("sec ret");
  });

  it("needs an explicit key for a custom origin", () => {
    expect(parseConfig({ apiUrl: "http://127.0.0.1:9" }, { CREATEOS_API_KEY: "x" })).toEqual({
      ok: false,
      problems: ["apiKey is required for a custom apiUrl"],
    });
    expect(parseConfig({}, { CREATEOS_API_KEY: "x" }).ok).toBe(true);
  });

  it("warns above the service rate limit", () => {
    const parsed = parseConfig({ apiKey: "k", requestsPerMinute: 1000 }, {});
    expect(parsed.ok && parsed.warnings).toEqual([
      "requestsPerMinute above 300 exceeds the CreateOS rate limit",
    ]);
  });
});

describe("requireConfig", () => {
  it("throws the coded error with the problems", () => {
    expect(() => requireConfig({ shape: "", apiKey: "k", region: "bad region" }, {})).toThrow(
      expect.objectContaining({
        code: "ERR_CREATEOS_INVALID_CONFIG",
        message: "CreateOS environment config is invalid: region must be 1-200 name characters",
      }),
    );
  });
});
