import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./parse-args.js";

describe("parseCliArgs", () => {
  it("parses every flag, in both --flag value and --flag=value forms", () => {
    expect(
      parseCliArgs([
        "--port",
        "8080",
        "--host=::1",
        "--api-key",
        "k",
        "--heartbeat-ms=100",
        "--journal-bytes",
        "4096",
        "--rate-limit",
        "off",
        "--transition-ms",
        "0",
        "--workspace-root",
        "/w",
        "--isolation",
        "bwrap",
        "--faults",
        "plan.json",
        "--json",
        "--journal-backpressure",
      ]),
    ).toEqual({
      action: "start",
      json: true,
      faultsFile: "plan.json",
      options: {
        port: 8080,
        host: "::1",
        apiKey: "k",
        heartbeatMs: 100,
        journalBytes: 4096,
        rateLimitPerMinute: null,
        transitionMs: 0,
        workspaceRoot: "/w",
        isolation: "bwrap",
        journalBackpressure: true,
      },
    });
  });

  it("recognises help and version", () => {
    expect(parseCliArgs(["--help"])).toEqual({ action: "help" });
    expect(parseCliArgs(["-v"])).toEqual({ action: "version" });
  });

  it.each([
    [["--port", "x"]],
    [["--port"]],
    [["--bogus", "1"]],
    [["--isolation", "vm"]],
    [["--rate-limit", "-3"]],
  ])("rejects %j with ERR_CREATEOS_EMULATOR_OPTIONS", (argv) => {
    caughtSync(() => parseCliArgs(argv), "ERR_CREATEOS_EMULATOR_OPTIONS");
  });

  it("names the offending flag in one line", () => {
    expect(() => parseCliArgs(["--bogus", "1"])).toThrow(
      "Invalid CreateOS emulator options: Unknown option '--bogus'; see --help.",
    );
    expect(() => parseCliArgs(["--rate-limit", "-3"])).toThrow(
      "Invalid CreateOS emulator options: Option '--rate-limit' argument is ambiguous; see --help.",
    );
    expect(() => parseCliArgs(["stray"])).toThrow(/Unexpected argument 'stray'/);
  });
});
