import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROXY_LIMITS, resolveProxyLimits } from "./limits.js";

describe("resolveProxyLimits", () => {
  it("fills defaults and keeps given values", () => {
    expect(resolveProxyLimits()).toEqual(DEFAULT_PROXY_LIMITS);
    expect(resolveProxyLimits({ maxConnections: 3, tunnelIdleMs: undefined })).toEqual({
      ...DEFAULT_PROXY_LIMITS,
      maxConnections: 3,
    });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "10", 2 ** 60])("rejects %j", (value) => {
    let error: unknown;
    try {
      resolveProxyLimits({ maxHeaderBytes: value as number });
    } catch (caught) {
      error = caught;
    }
    expect(PaperclipError.is(error, "ERR_SANDBOX_PROXY_LIMIT_INVALID")).toBe(true);
    expect((error as Error).message).toBe(
      `Sandbox network proxy limit maxHeaderBytes must be a positive integer; got ${String(value)}.`,
    );
  });
});
