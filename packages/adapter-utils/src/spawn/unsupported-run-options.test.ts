import { PaperclipError } from "@paperclipai/errors";
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
    try {
      assertSupportedRunOptions({ remoteExecution: spec });
      expect.unreachable();
    } catch (error) {
      expect(PaperclipError.is(error, "ERR_SANDBOX_UNSUPPORTED_OPTION")).toBe(true);
      expect((error as Error).message).toBe(
        'runChildProcess does not implement the upstream option(s) "remoteExecution"; refusing to run without them.',
      );
      expect((error as PaperclipError).details).toEqual({ options: ["remoteExecution"] });
      const serialized = JSON.stringify(error) + String((error as Error).stack);
      expect(serialized).not.toContain("build.internal.example");
      expect(serialized).not.toContain("PRIVATE KEY");
    }
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
