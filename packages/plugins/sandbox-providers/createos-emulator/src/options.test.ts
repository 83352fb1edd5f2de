import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { resolveEmulatorOptions } from "./options.js";

describe("resolveEmulatorOptions", () => {
  it("fills in the documented defaults", () => {
    const resolved = resolveEmulatorOptions();
    expect(resolved).toMatchObject({
      host: "127.0.0.1",
      port: 0,
      heartbeatMs: 2000,
      journalBytes: 1024 * 1024,
      rateLimit: { perMinute: 300, burst: 100 },
      transitionMs: 50,
      isolation: "none",
      bwrapPath: "bwrap",
    });
  });

  it("turns the rate limit off with null and caps the burst at the per-minute rate", () => {
    expect(resolveEmulatorOptions({ rateLimitPerMinute: null }).rateLimit).toBeNull();
    expect(resolveEmulatorOptions({ rateLimitPerMinute: 30 }).rateLimit).toEqual({
      perMinute: 30,
      burst: 30,
    });
  });

  it.each([
    [{ host: "0.0.0.0" }, "host"],
    [{ host: "10.0.0.1" }, "host"],
    [{ port: -1 }, "port"],
    [{ port: 70000 }, "port"],
    [{ heartbeatMs: 1.5 }, "heartbeatMs"],
    [{ journalBytes: 0 }, "journalBytes"],
    [{ rateLimitPerMinute: 10, rateLimitBurst: 11 }, "rateLimitBurst"],
    [{ apiKey: "has space" }, "apiKey"],
    [{ apiKey: "" }, "apiKey"],
    [{ workspaceRoot: "relative/dir" }, "workspaceRoot"],
    [{ isolation: "docker" as never }, "isolation"],
    [{ isolation: "bwrap" as const, workspaceRoot: "/tmp/x" }, "workspaceRoot"],
  ])("rejects %j with ERR_CREATEOS_EMULATOR_OPTIONS naming the option", (options, option) => {
    const caught = caughtSync(() => resolveEmulatorOptions(options), "ERR_CREATEOS_EMULATOR_OPTIONS");
    expect(caught.details).toEqual({ option });
    expect(caught.message).toMatch(/^Invalid CreateOS emulator options: /);
  });

  it("puts sandbox directories under /var/tmp with bubblewrap, as /tmp is remounted there", () => {
    expect(resolveEmulatorOptions({ isolation: "bwrap" }).workspaceRoot).toBe("/var/tmp");
    expect(resolveEmulatorOptions().workspaceRoot).toBeUndefined();
  });

  it("accepts every loopback form", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) {
      expect(resolveEmulatorOptions({ host }).host).toBe(host);
    }
  });
});
