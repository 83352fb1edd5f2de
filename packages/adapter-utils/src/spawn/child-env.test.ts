import { describe, expect, it } from "vitest";
import { applyEnvChanges, mergeChildEnv } from "./child-env.js";

describe("mergeChildEnv", () => {
  it("drops per-run Paperclip keys and nesting guards, keeps the caller's env and a PATH", () => {
    const merged = mergeChildEnv(
      {
        PAPERCLIP_RUN_ID: "old",
        PAPERCLIP_RUNTIME_API_URL: "http://127.0.0.1:1",
        CLAUDECODE: "1",
        HOME: "/root",
      },
      { PAPERCLIP_RUN_ID: "new", FOO: "bar" },
      "/managed/home",
    );
    expect(merged).toMatchObject({
      PAPERCLIP_RUN_ID: "new",
      PAPERCLIP_RUNTIME_API_URL: "http://127.0.0.1:1",
      FOO: "bar",
      HOME: "/managed/home",
    });
    expect(merged.CLAUDECODE).toBeUndefined();
    expect(merged.PATH).toContain("/usr/bin");
  });
});

describe("applyEnvChanges", () => {
  it("sets values and deletes keys given as undefined", () => {
    expect(
      applyEnvChanges({ A: "1", HTTP_PROXY: "http://corp:3128" }, { HTTP_PROXY: undefined, B: "2" }),
    ).toEqual({
      A: "1",
      B: "2",
    });
  });
});
