import { describe, expect, it } from "vitest";
import { buildHarnessEnv, passedValues } from "./harness-env.js";

describe("buildHarnessEnv", () => {
  const identity = { runId: "r", sessionId: "s", runnerId: "n" };
  const parent = {
    PATH: "/usr/bin",
    HOME: "/root",
    OPENAI_API_KEY: "sk-secret",
    AWS_SECRET_ACCESS_KEY: "x",
    LANG: "C",
  };

  it("passes the allowlist and the run identity, nothing else", () => {
    expect(buildHarnessEnv(parent, [], identity)).toEqual({
      PATH: "/usr/bin",
      HOME: "/root",
      LANG: "C",
      PAPERCLIP_RUN_ID: "r",
      PAPERCLIP_SESSION_ID: "s",
      PAPERCLIP_RUNNER_ID: "n",
    });
  });

  it("passes a named secret, and a named variable that is unset stays unset", () => {
    const env = buildHarnessEnv(parent, ["OPENAI_API_KEY", "MISSING"], identity);
    expect(env.OPENAI_API_KEY).toBe("sk-secret");
    expect("MISSING" in env).toBe(false);
    expect("AWS_SECRET_ACCESS_KEY" in env).toBe(false);
  });
});

describe("passedValues", () => {
  it("lists the values passed through by name that are long enough to mask, longest first", () => {
    const parent = {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      PLAIN_SECRET: "correct-horse-battery",
      LONGER: "correct-horse-battery-staple-9431",
      SHORT: "prod",
      UNNAMED: "never-passed-value",
    };
    expect(passedValues(parent, ["PATH", "PLAIN_SECRET", "LONGER", "SHORT", "MISSING"])).toEqual([
      "correct-horse-battery-staple-9431",
      "correct-horse-battery",
    ]);
  });
});
