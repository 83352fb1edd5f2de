import { describe, expect, it } from "vitest";
import { rewriteSandboxPaths } from "./path-rewrite.js";

const dirs = { workspaceDir: "/h/ws", tmpDir: "/h/tmp" };

describe("rewriteSandboxPaths", () => {
  it("rewrites the sandbox prefixes where a path starts", () => {
    expect(rewriteSandboxPaths("cd -- '/paperclip-workspace' || exit", dirs)).toBe("cd -- '/h/ws' || exit");
    expect(rewriteSandboxPaths("cat /paperclip-workspace/a < '/tmp/in'", dirs)).toBe(
      "cat /h/ws/a < '/h/tmp/in'",
    );
    expect(rewriteSandboxPaths("/tmp", dirs)).toBe("/h/tmp");
    expect(rewriteSandboxPaths("X=/tmp/a:/paperclip-workspace/b", dirs)).toBe("X=/h/tmp/a:/h/ws/b");
  });

  it("leaves other paths alone", () => {
    expect(rewriteSandboxPaths("/tmpfile /x/tmp /paperclip-workspaces", dirs)).toBe(
      "/tmpfile /x/tmp /paperclip-workspaces",
    );
  });
});
