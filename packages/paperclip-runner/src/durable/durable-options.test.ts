import type { PaperclipError } from "@paperclipai/errors";
import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { parseFlags } from "../cli/flags.js";
import { isDurableMode, readDurableOptions } from "./durable-options.js";

const IDENTITY = [
  "--state-dir",
  "/tmp/state",
  "--runner-id",
  "r",
  "--environment-lease-id",
  "e",
  "--run-id",
  "run",
  "--session-id",
  "s",
  "--turn-id",
  "t",
  "--item-id",
  "i",
  "--runner-version",
  "0.3.0",
  "--runner-digest",
  `sha256:${"a".repeat(64)}`,
];

function refused(argv: readonly string[]): PaperclipError {
  return caughtSync(() => readDurableOptions(parseFlags(argv)));
}

describe("durable mode options", () => {
  it("is selected by --connect-url or the listen flags, never without them", () => {
    expect(isDurableMode(parseFlags(["--connect-url", "ws://127.0.0.1:1/x"]))).toBe(true);
    expect(isDurableMode(parseFlags(["--listen-port", "1"]))).toBe(true);
    expect(isDurableMode(parseFlags(["--run-id", "r"]))).toBe(false);
  });

  it("reads the launcher's values, a missing script path selecting the built-in script, provider profiles noted", () => {
    const options = readDurableOptions(
      parseFlags([
        "--connect-url",
        "ws://127.0.0.1:9/durableRecovery/connect",
        ...IDENTITY,
        "--fake-harness",
        "/not/shipped/fake-harness",
        "--fake-harness-script",
        "/not/shipped/happy-path.json",
        "--max-outbox-bytes",
        "16777216",
        "--p0-reserve-bytes",
        "1048576",
        "--max-runtime-ms",
        "0",
        "--lifecycle-mode",
        "per_turn",
        "--acpx-sidecar-command",
        "/x",
      ]),
    );
    expect(options).toMatchObject({
      identity: { runnerInstanceId: "r", turnId: "t", itemId: "i" },
      runnerVersion: "0.3.0",
      fakeHarnessScript: null,
      outbox: { maxBytes: 16_777_216, p0ReserveBytes: 1_048_576 },
      maxLifetimeMs: 0,
      lifecycleMode: "per_turn",
      ignoredProviderFlags: ["--acpx-sidecar-command"],
      opencodeProfile: null,
    });
    expect(options.endpoint).toMatchObject({ mode: "connect" });
  });

  it("reads the listen group", () => {
    const options = readDurableOptions(
      parseFlags([
        "--listen-address",
        "0.0.0.0",
        "--listen-port",
        "7001",
        "--listen-path",
        "/runner",
        ...IDENTITY,
      ]),
    );
    expect(options.endpoint).toEqual({ mode: "listen", address: "0.0.0.0", port: 7001, path: "/runner" });
  });

  it.each([
    [
      ["--connect-url", "http://127.0.0.1/x"],
      "invalid --connect-url: must be a ws:// (loopback) or wss:// URL",
    ],
    [
      ["--connect-url", "ws://127.0.0.1/x", "--ca-bundle-path", "/ca.pem"],
      "invalid --ca-bundle-path: only applies to a wss:// URL",
    ],
    [
      ["--connect-url", "ws://127.0.0.1/x", "--max-outbox-bytes", "100", "--p0-reserve-bytes", "100"],
      "invalid --p0-reserve-bytes: must be less than --max-outbox-bytes",
    ],
    [
      ["--connect-url", "ws://127.0.0.1/x", "--lifecycle-mode", "forever"],
      "invalid --lifecycle-mode: must be per_turn or warm",
    ],
    [
      ["--listen-address", "0.0.0.0", "--listen-port", "70000", "--listen-path", "/r"],
      "invalid --listen-port: must be a TCP port",
    ],
  ])("refuses %j", (argv, message) => {
    const error = refused([...argv, ...IDENTITY]);
    expect(error.code).toBe("ERR_RUNNER_INVALID_ARGUMENT");
    expect(error.message).toBe(message);
  });

  it("requires every identity flag the server passes", () => {
    const error = refused(["--connect-url", "ws://127.0.0.1/x", ...IDENTITY.slice(2)]);
    expect(error.message).toBe("missing required argument --state-dir");
  });
});

describe("the OpenCode launch profile flags", () => {
  const BASE = ["--connect-url", "ws://127.0.0.1:9/x", ...IDENTITY];
  const digest = `sha256:${"b".repeat(64)}`;
  const PROFILE = [
    "--opencode-proxy-command",
    "/usr/bin/node",
    "--opencode-proxy-command-sha256",
    digest,
    "--opencode-proxy-script",
    "/srv/proxy.cjs",
    "--opencode-proxy-script-sha256",
    digest,
    "--opencode-executable",
    "/srv/opencode",
    "--opencode-executable-sha256",
    digest,
  ];

  it("reads all six into the profile", () => {
    expect(readDurableOptions(parseFlags([...BASE, ...PROFILE])).opencodeProfile).toEqual({
      command: "/usr/bin/node",
      commandSha256: digest,
      proxyScript: "/srv/proxy.cjs",
      proxyScriptSha256: digest,
      executable: "/srv/opencode",
      executableSha256: digest,
    });
  });

  it("refuses a partial profile or a malformed digest", () => {
    expect(refused([...BASE, ...PROFILE.slice(0, 10)]).message).toBe(
      "invalid --opencode-executable-sha256: the OpenCode launch profile needs all six --opencode-* flags",
    );
    const bad = [...PROFILE];
    bad[3] = "sha256:nothex";
    expect(refused([...BASE, ...bad]).message).toBe(
      "invalid --opencode-proxy-command-sha256: must be sha256:<64 hex>",
    );
  });
});
