import { describe, expect, it } from "vitest";
import { buildSandboxEnv } from "./sandbox-env.js";

describe("buildSandboxEnv", () => {
  it("changes nothing without a network scope", () => {
    expect(buildSandboxEnv(null)).toEqual({});
  });

  it("deletes every proxy variable and empties NO_PROXY under deny", () => {
    const env = buildSandboxEnv("deny");
    for (const key of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"]) {
      expect(key in env && env[key] === undefined).toBe(true);
    }
    expect(env.NO_PROXY).toBe("");
    expect(env.no_proxy).toBe("");
  });

  it("points the proxy variables at the bridge under the allowlist and opts Node's fetch in", () => {
    const env = buildSandboxEnv("allowlist");
    expect(env.HTTP_PROXY).toBe("http://127.0.0.1:31337");
    expect(env.https_proxy).toBe("http://127.0.0.1:31337");
    expect(env.ALL_PROXY).toBeUndefined();
    expect(env.NODE_USE_ENV_PROXY).toBe("1");
    // Only the proxy's own address is exempt, so a client that proxies on its own is not re-proxied.
    expect(env.NO_PROXY).toBe("127.0.0.1:31337,localhost:31337");
    expect(env.no_proxy).toBe(env.NO_PROXY);
  });
});
