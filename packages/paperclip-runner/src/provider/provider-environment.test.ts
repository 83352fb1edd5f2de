import { describe, expect, it } from "vitest";
import { providerEnvironment } from "./provider-environment.js";

describe("the provider's environment", () => {
  it("starts from nothing: the base keys and the provider's own, never the ticket or other secrets", () => {
    const parent = {
      PATH: "/bin",
      HOME: "/home/a",
      CODEX_HOME: "/codex",
      OPENAI_API_KEY: "k",
      OPENROUTER_API_KEY: "r",
      PAPERCLIP_RUNNER_BOOTSTRAP_TICKET: "bootstrap_x",
      AWS_SECRET_ACCESS_KEY: "s",
    };
    expect(providerEnvironment("codex", parent)).toEqual({
      PATH: "/bin",
      HOME: "/home/a",
      CODEX_HOME: "/codex",
      OPENAI_API_KEY: "k",
    });
    expect(providerEnvironment("opencode", parent)).toEqual({
      PATH: "/bin",
      HOME: "/home/a",
      OPENAI_API_KEY: "k",
      OPENROUTER_API_KEY: "r",
    });
  });
});
