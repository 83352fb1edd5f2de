import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { DEFAULT_API_URL, resolveApiKey, resolveApiOrigin } from "./api-url.js";

const MESSAGE =
  "CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.";

describe("resolveApiOrigin", () => {
  it.each([
    [undefined, DEFAULT_API_URL],
    ["https://api.sb.createos.sh", DEFAULT_API_URL],
    ["https://api.sb.createos.sh/", DEFAULT_API_URL],
    ["https://api.sb.createos.sh/v1", DEFAULT_API_URL],
    ["https://api.sb.createos.sh/v1/", DEFAULT_API_URL],
    ["https://example.test:8443/v1", "https://example.test:8443"],
    ["http://127.0.0.1:4000", "http://127.0.0.1:4000"],
    ["http://localhost:4000/v1", "http://localhost:4000"],
    ["http://[::1]:4000/", "http://[::1]:4000"],
  ])("accepts %s as %s", (input, origin) => {
    expect(resolveApiOrigin(input)).toBe(origin);
  });

  it.each([
    "http://example.test",
    "http://10.0.0.1",
    "https://user:pw@example.test",
    "https://user@example.test",
    "https://example.test/v2",
    "https://example.test/v1/sandboxes",
    "https://example.test/?x=1",
    "https://example.test/?",
    "https://example.test/#frag",
    "ftp://example.test",
    "not a url",
    "",
    " https://example.test",
    42,
  ])("rejects %s with the upstream message", (input) => {
    const thrown = caughtSync(() => resolveApiOrigin(input), "ERR_CREATEOS_API_URL");
    expect(thrown.message).toBe(MESSAGE);
  });
});

describe("resolveApiKey", () => {
  it("prefers the configured key", () => {
    expect(resolveApiKey("http://127.0.0.1:1", "k1", { CREATEOS_API_KEY: "env" })).toBe("k1");
  });

  it("uses CREATEOS_API_KEY for the default origin only", () => {
    expect(resolveApiKey(DEFAULT_API_URL, undefined, { CREATEOS_API_KEY: "env" })).toBe("env");
    expect(() => resolveApiKey("https://other.test", undefined, { CREATEOS_API_KEY: "env" })).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_API_KEY_MISSING" }),
    );
  });

  it("rejects a key a header cannot carry, without echoing it", () => {
    const thrown = caughtSync(
      () => resolveApiKey(DEFAULT_API_URL, "secret\nvalue", {}),
      "ERR_CREATEOS_API_KEY_INVALID",
    );
    expect(String(thrown.message)).not.toContain("secret");
  });
});
