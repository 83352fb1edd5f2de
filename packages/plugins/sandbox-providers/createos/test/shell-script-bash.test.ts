import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { buildScript } from "../src/execute/shell-script.js";

describe("buildScript through a real bash", () => {
  it("passes hostile values through bash unchanged", () => {
    const args = ["$(touch /nonexistent)", "`id`", "a'b\"c", "; rm -rf /", "\n", "*", "-n", "é🙂"];
    const script = buildScript({ command: "printf", args: ["%s\\0", ...args], env: { X: "$HOME'" } });
    const out = execFileSync("/bin/bash", ["-c", script], { encoding: "utf8" });
    expect(out.split("\0").slice(0, -1)).toEqual(args);
    const env = execFileSync(
      "/bin/bash",
      ["-c", buildScript({ command: "printenv", args: ["X"], env: { X: "$HOME'" } })],
      {
        encoding: "utf8",
      },
    );
    expect(env).toBe("$HOME'\n");
  });

  it("fails instead of running elsewhere when cwd is missing", () => {
    expect(() =>
      execFileSync("/bin/bash", ["-c", buildScript({ command: "pwd", cwd: "/nonexistent-dir-x" })], {
        stdio: "pipe",
      }),
    ).toThrow();
  });
});
