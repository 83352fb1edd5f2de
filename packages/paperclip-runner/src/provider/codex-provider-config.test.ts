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

  it("refuses kinds it does not execute with upstream's message", () => {
    for (const kind of ["acpx", "claude_managed", "aws_agentcore", "openai_dot"]) {
      const error = caughtSync(() => executableProviderKind(kind));
      expect(error.code).toBe("ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED");
      expect(error.message).toBe(
        `provider kind ${kind} is not executable through the local runnerd boundary`,
      );
    }
  });

  it("enforces pairing, bounds, the working directory and approvalPolicy=never", () => {
    const refused = (change: Record<string, unknown>): string =>
      caughtSync(() => readCodexProviderConfig({ ...codex, ...change })).message;
    expect(refused({ driver: "opencode_server" })).toBe(
      "invalid provider configuration: provider codex requires driver codex_app_server",
    );
    expect(refused({ provider: "opencode" })).toBe(
      "invalid provider configuration: provider opencode does not match kind codex",
    );
    expect(refused({ command: "" })).toBe(
      "invalid provider configuration: command must be a non-empty string",
    );
    expect(refused({ args: ["app-server", 1] })).toBe(
      "invalid provider configuration: args must be an array of strings",
    );
    expect(refused({ args: ["a\0b"] })).toBe(
      "invalid provider configuration: each arg must be at most 4096 bytes without NUL",
    );
    expect(refused({ instructions: "i".repeat(1024 * 1024 + 1) })).toBe(
      "invalid provider configuration: instructions must be a string of at most 1 MiB",
    );
    expect(refused({ cwd: "relative" })).toBe(
      "invalid provider configuration: cwd must be an existing absolute directory",
    );
    expect(refused({ args: Array(65).fill("a") })).toBe(
      "invalid provider configuration: at most 64 args are allowed",
    );
    expect(refused({ model: "m".repeat(241) })).toBe(
      "invalid provider configuration: model must be a string of 1 to 240 characters",
    );
    expect(refused({ approvalPolicy: "on-request" })).toBe(
      "invalid provider configuration: the initial Codex runner requires approvalPolicy=never; governed actions use PRP",
    );
    expect(
      refused({
        kind: "opencode",
        provider: "opencode",
        driver: "opencode_server",
        providerVersion: "1.0.0",
      }),
    ).toBe("invalid provider configuration: opencode providerVersion must be the qualified release 1.18.29");
    expect(
      refused({
        kind: "opencode",
        provider: "opencode",
        driver: "opencode_server",
        providerVersion: "1.18.29",
        model: "plain",
      }),
    ).toBe("invalid provider configuration: an opencode model must be provider/model");
  });
});
