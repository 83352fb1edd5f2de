import { tmpdir } from "node:os";
import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { readCodexProviderConfig } from "./codex-provider-config.js";
import { executableProviderKind } from "./provider-kind.js";

const codex = {
  kind: "codex",
  provider: "codex",
  driver: "codex_app_server",
  providerVersion: "codex-app-server-v1",
  command: "codex",
  args: ["app-server"],
  cwd: tmpdir(),
  model: "gpt-test",
  approvalPolicy: "never",
  collaborationMode: "default",
};

describe("the provider configuration of run.prepare", () => {
  it("reads the Codex descriptor, ignoring keys it does not use", () => {
    const { collaborationMode: _ignored, ...used } = codex;
    expect(readCodexProviderConfig(codex)).toEqual({
      ...used,
      externallySandboxed: false,
      instructions: null,
      includeSkillInstructions: null,
    });
  });

  it("refuses kinds it does not execute with upstream's messages", () => {
    const refused = (provider: unknown) => caughtSync(() => executableProviderKind(provider));
    for (const kind of ["openai_dot", "cursor"]) {
      const error = refused({ kind });
      expect(error.code).toBe("ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED");
      expect(error.message).toBe(
        `provider kind ${kind} is not executable through the local runnerd boundary`,
      );
    }
    for (const provider of [{}, { kind: 3 }, null, "codex"]) {
      expect(refused(provider).message).toBe(
        "run.prepare requires a supported provider kind before runner execution",
      );
    }
    // Upstream's executor for these kinds refuses a key its descriptor does not take (the first, sorted).
    expect(refused({ ...codex, kind: "acpx" }).message).toMatch(
      /^run\.prepare ACPX provider is invalid: unknown field `approvalPolicy`, expected one of `kind`, /,
    );
    expect(refused({ kind: "claude_managed", provider: "claude_managed", zeta: 1 }).message).toMatch(
      /^Claude Managed provider descriptor is invalid: unknown field `zeta`, expected one of `model`, /,
    );
    expect(refused({ kind: "aws_agentcore", args: [] }).message).toMatch(
      /^AWS AgentCore provider descriptor is invalid: unknown field `args`, expected one of `model`, /,
    );
    // A descriptor of theirs with nothing unknown: this runner still does not execute it.
    expect(refused({ kind: "acpx", agent: "codex" }).message).toBe(
      "provider kind acpx is not executable through the local runnerd boundary",
    );
  });

  it("quotes a submitted value only redacted and cut short (refusals reach the journal and the server)", () => {
    const token = `ghp_${"a1B2c3D4e5".repeat(4)}`;
    const wrongArgs = caughtSync(() => readCodexProviderConfig({ ...codex, args: `--api-key ${token}` }));
    expect(wrongArgs.message).toMatch(/^run\.prepare provider is invalid: invalid type: string "--api-key /);
    expect(wrongArgs.message).not.toContain(token);
    const long = caughtSync(() => readCodexProviderConfig({ ...codex, args: "x".repeat(10_000) }));
    expect(long.message).toContain(`string "${"x".repeat(64)}…"`);
    const kind = caughtSync(() => executableProviderKind({ kind: "k".repeat(10_000) }));
    expect(kind.message).toBe(
      `provider kind ${"k".repeat(240)}… is not executable through the local runnerd boundary`,
    );
  });

  it("enforces upstream's checks in upstream's order, with its messages", () => {
    const refused = (change: Record<string, unknown>): string =>
      caughtSync(() => readCodexProviderConfig({ ...codex, ...change })).message;
    const pairing =
      "local runner provider must be codex through codex_app_server or opencode through opencode_server";
    expect(refused({ driver: "opencode_server" })).toBe(pairing);
    expect(refused({ provider: "opencode" })).toBe(pairing);
    // The kind is not read once the executor is chosen.
    expect(readCodexProviderConfig({ ...codex, kind: "acpx" }).provider).toBe("codex");
    expect(caughtSync(() => readCodexProviderConfig(undefined)).message).toBe(
      "run.prepare requires provider",
    );
    const { cwd: _cwd, ...withoutCwd } = codex;
    expect(caughtSync(() => readCodexProviderConfig(withoutCwd)).message).toBe(
      "run.prepare provider is invalid: missing field `cwd`",
    );
    // A wrong type is reported before a missing field, in key order.
    const { driver: _driver, ...withoutDriver } = codex;
    expect(caughtSync(() => readCodexProviderConfig({ ...withoutDriver, model: true })).message).toBe(
      "run.prepare provider is invalid: invalid type: boolean `true`, expected a string",
    );
    expect(refused({ args: ["app-server", 1] })).toBe(
      "run.prepare provider is invalid: invalid type: integer `1`, expected a string",
    );
    expect(refused({ command: 1.5 })).toBe(
      "run.prepare provider is invalid: invalid type: floating point `1.5`, expected path string",
    );
    expect(refused({ instructions: null })).toBe(
      "run.prepare provider is invalid: invalid type: null, expected a string",
    );
    expect(refused({ providerVersion: " " })).toBe("Codex providerVersion is empty or oversized");
    expect(refused({ command: "" })).toBe("Codex command is required");
    expect(refused({ cwd: "relative" })).toBe("Codex cwd must be an existing absolute directory");
    expect(refused({ args: ["a\0b"] })).toBe("Codex arguments exceed the bounded launch contract");
    expect(refused({ args: Array(65).fill("a") })).toBe("Codex arguments exceed the bounded launch contract");
    // Bytes, not characters.
    expect(refused({ model: "é".repeat(121) })).toBe("Codex model is invalid");
    expect(readCodexProviderConfig({ ...codex, model: "é".repeat(120) }).model).toBe("é".repeat(120));
    expect(refused({ providerSessionId: "a\nb" })).toBe("Codex providerSessionId is invalid");
    expect(refused({ instructions: "i".repeat(1024 * 1024 + 1) })).toBe(
      "Codex instructions exceed the 1 MiB limit",
    );
    expect(refused({ approvalPolicy: "on-request" })).toBe(
      "the initial Codex runner requires approvalPolicy=never; governed actions use PRP",
    );
    const opencode = { kind: "opencode", provider: "opencode", driver: "opencode_server" };
    expect(refused({ ...opencode, providerVersion: "1.0.0" })).toBe(
      "OpenCode providerVersion must equal the qualified 1.18.29 release",
    );
    expect(refused({ ...opencode, providerVersion: "1.18.29", externallySandboxed: true })).toBe(
      "external sandbox delegation is only supported by the Codex provider",
    );
    expect(refused({ ...opencode, providerVersion: "1.18.29", model: "plain" })).toBe(
      "OpenCode model must be a qualified provider/model identifier",
    );
    expect(
      readCodexProviderConfig({ ...codex, ...opencode, providerVersion: "1.18.29", model: "a/b c" }).model,
    ).toBe("a/b c");
  });
});
