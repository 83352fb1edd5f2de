import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./parse-cli-args.js";

function usageReason(argv: string[]): string {
  return caughtSync(() => parseCliArgs(argv), "ERR_SANDBOX_CLI_USAGE").message;
}

describe("parseCliArgs", () => {
  it("recognises help, version and doctor", () => {
    expect(parseCliArgs([])).toEqual({ kind: "help" });
    expect(parseCliArgs(["--help"])).toEqual({ kind: "help" });
    expect(parseCliArgs(["-V"])).toEqual({ kind: "version" });
    expect(parseCliArgs(["doctor", "--json"])).toEqual({ kind: "doctor", json: true });
  });

  it("collects repeatable options and the command after --", () => {
    expect(
      parseCliArgs([
        "--workspace",
        "/ws",
        "--ro",
        "/a",
        "--ro=/b",
        "--rw",
        "/ws/c",
        "--allow",
        "api.example.com",
        "--trust",
        "http://127.0.0.1:3100",
        "-v",
        "--timeout",
        "30",
        "--",
        "curl",
        "-s",
        "--",
        "x",
      ]),
    ).toEqual({
      kind: "run",
      workspace: "/ws",
      ro: ["/a", "/b"],
      rw: ["/ws/c"],
      net: "allowlist",
      allow: ["api.example.com"],
      trust: ["http://127.0.0.1:3100"],
      hostFs: false,
      verbose: true,
      timeoutSec: 30,
      command: "curl",
      args: ["-s", "--", "x"],
    });
  });

  it("defaults to no network and starts the command at the first non-option word", () => {
    expect(parseCliArgs(["--host-fs", "ls", "-la"])).toMatchObject({
      net: "deny",
      hostFs: true,
      command: "ls",
      args: ["-la"],
    });
  });

  it("reports usage errors as ERR_SANDBOX_CLI_USAGE", () => {
    expect(usageReason(["--bogus", "--", "ls"])).toContain('Unknown option "--bogus"');
    expect(usageReason(["--net", "public", "--", "ls"])).toBe(
      '--net must be "deny" or "allowlist"; got "public".',
    );
    expect(usageReason(["--ro"])).toBe("Option --ro needs a value.");
    expect(usageReason(["--net", "deny"])).toContain("No command given");
    expect(usageReason(["--net", "deny", "--allow", "x.test", "--", "ls"])).toBe(
      "--allow and --trust need --net allowlist.",
    );
    expect(usageReason(["doctor", "--fix"])).toContain('Unknown doctor option "--fix"');
    expect(usageReason(["--timeout", "-1", "ls"])).toContain("--timeout must be a whole number");
  });
});
