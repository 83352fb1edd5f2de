import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { parseCliArgs, readOptionWord, resolveNetworkScope } from "./parse-cli-args.js";

function usageOf(parse: () => unknown): string {
  return caughtSync(parse, "ERR_SANDBOX_CLI_USAGE").message;
}

function usageReason(argv: string[]): string {
  return usageOf(() => parseCliArgs(argv));
}

describe("parseCliArgs", () => {
  it("recognises help, version and doctor", () => {
    expect(parseCliArgs([])).toEqual({ kind: "help" });
    expect(parseCliArgs(["--help"])).toEqual({ kind: "help" });
    expect(parseCliArgs(["-V"])).toEqual({ kind: "version" });
    expect(parseCliArgs(["doctor", "--json"])).toEqual({ kind: "doctor", json: true });
    expect(parseCliArgs(["doctor"])).toEqual({ kind: "doctor", json: false });
    expect(parseCliArgs(["--ro", "/a", "-h", "ls"])).toEqual({ kind: "help" });
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
    expect(usageReason(["--timeout=1.5", "ls"])).toContain("--timeout must be a whole number");
  });
});

describe("readOptionWord", () => {
  it("reads flags, options with their value inline or next, and where the command starts", () => {
    const argv = ["-v", "--ro", "/a", "--ro=/b", "--", "ls"];
    expect(readOptionWord(argv, 0)).toEqual({ kind: "flag", flag: "verbose", next: 1 });
    expect(readOptionWord(argv, 1)).toEqual({ kind: "value", name: "--ro", value: "/a", next: 3 });
    expect(readOptionWord(argv, 3)).toEqual({ kind: "value", name: "--ro", value: "/b", next: 4 });
    expect(readOptionWord(argv, 4)).toEqual({ kind: "command", at: 5 });
    expect(readOptionWord(["ls", "--ro"], 0)).toEqual({ kind: "command", at: 0 });
    expect(readOptionWord([], 0)).toEqual({ kind: "command", at: 0 });
  });

  it("takes no word for a flag that only looks like one", () => {
    expect(() => readOptionWord(["--verbose=1"], 0)).toThrow('Unknown option "--verbose=1"');
    expect(() => readOptionWord(["-constructor"], 0)).toThrow('Unknown option "-constructor"');
    expect(readOptionWord(["constructor"], 0)).toEqual({ kind: "command", at: 0 });
    expect(() => readOptionWord(["--rw="], 0)).toThrow("Option --rw needs a value.");
  });
});

describe("resolveNetworkScope", () => {
  it("keeps an explicit --net, else allows exactly when something is allowed", () => {
    expect(resolveNetworkScope("allowlist", [], [])).toBe("allowlist");
    expect(resolveNetworkScope(null, [], [])).toBe("deny");
    expect(resolveNetworkScope(null, ["api.test"], [])).toBe("allowlist");
    expect(resolveNetworkScope(null, [], ["http://127.0.0.1:3100"])).toBe("allowlist");
  });

  it("refuses --net deny beside --allow or --trust", () => {
    expect(usageOf(() => resolveNetworkScope("deny", [], ["http://127.0.0.1:3100"]))).toBe(
      "--allow and --trust need --net allowlist.",
    );
  });
});
