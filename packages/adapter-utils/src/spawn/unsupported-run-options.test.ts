import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { assertSupportedRunOptions } from "./unsupported-run-options.js";

describe("assertSupportedRunOptions", () => {
  it("accepts upstream's local defaults", () => {
    expect(() => assertSupportedRunOptions({})).not.toThrow();
    expect(() =>
      assertSupportedRunOptions({ remoteExecution: null, terminalResultCleanup: undefined }),
    ).not.toThrow();
  });

  it("refuses remote execution by name, without the spec's values", () => {
    const spec = { host: "build.internal.example", privateKey: "-----BEGIN OPENSSH PRIVATE KEY-----" };
    const error = caughtSync(
      () => assertSupportedRunOptions({ remoteExecution: spec }),
      "ERR_SANDBOX_UNSUPPORTED_OPTION",
    );
    expect(error.message).toBe(
      'runChildProcess does not implement the upstream option(s) "remoteExecution"; refusing to run without them.',
    );
    expect(error.details).toEqual({ options: ["remoteExecution"] });
    const serialized = JSON.stringify(error) + String(error.stack);
    expect(serialized).not.toContain("build.internal.example");
    expect(serialized).not.toContain("PRIVATE KEY");
  });

  it("names every refused option", () => {
    expect(() =>
      assertSupportedRunOptions({
        remoteExecution: { host: "h" },
        terminalResultCleanup: { hasTerminalResult: () => true },
      }),
    ).toThrow('option(s) "remoteExecution", "terminalResultCleanup";');
  });
});
