import { describe, expect, it } from "vitest";
import { explain } from "../explain/explain.js";
import { REDACTION_GUIDE } from "../redact/redaction-guide.js";
import { errorRegistry } from "../registry/registry.js";
import { caughtSync } from "../testing/caught-code.js";
import { CLI_USAGE, planCli } from "./run-cli.js";

function usageFailure(argv: string[]): string {
  return caughtSync(() => planCli(argv), "ERR_ERRORS_CLI_USAGE").message;
}

describe("planCli", () => {
  it("prints the usage for no command and for --help", () => {
    expect(planCli([]).stdout).toBe(CLI_USAGE);
    expect(planCli(["--help"]).stdout).toBe(CLI_USAGE);
  });

  it("lists every code", () => {
    const lines = planCli(["list"]).stdout.trimEnd().split("\n");
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual(errorRegistry.map((entry) => entry.code));
  });

  it("explains one code", () => {
    expect(planCli(["explain", "ERR_SANDBOX_PROXY_SOCKET_DIR"]).stdout).toBe(
      explain("ERR_SANDBOX_PROXY_SOCKET_DIR"),
    );
  });

  it("explains redaction: what is redacted and what is kept", () => {
    const { stdout } = planCli(["explain", "redaction"]);
    expect(stdout).toBe(REDACTION_GUIDE);
    expect(stdout).toContain("## Redacted");
    expect(stdout).toContain("## Kept on purpose");
    expect(stdout).toContain("AWS access key id");
    expect(planCli(["--help"]).stdout).toContain("explain redaction");
  });

  it("plans the docs tree", () => {
    const plan = planCli(["docs", "--out", "/tmp/x"]);
    expect(plan.files?.dir).toBe("/tmp/x");
    expect(plan.files?.contents.has("README.md")).toBe(true);
  });

  it("rejects bad usage with ERR_ERRORS_CLI_USAGE", () => {
    expect(usageFailure(["explain"])).toBe("explain takes exactly one error code.");
    expect(usageFailure(["docs"])).toBe("docs requires --out <DIR>.");
    expect(usageFailure(["docs", "--out", "--x"])).toBe("docs requires --out <DIR>.");
    expect(usageFailure(["frobnicate"])).toBe('Unknown command "frobnicate". Run paperclip-errors --help.');
  });
});
