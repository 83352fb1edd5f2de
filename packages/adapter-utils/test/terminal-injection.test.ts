import { spawn } from "node:child_process";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, exec, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

const bin = path.join(packageDir, "bin", "paperclip-sandbox.js");

/**
 * Runs `command` on a pseudo-terminal of its own (`script`), as on a person's terminal whose
 * shell reads it after the run; returns what the terminal showed, without the carriage returns.
 */
function onTerminal(command: string): Promise<{ code: number | null; screen: string }> {
  const child = spawn("script", ["-qec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  child.stdout.on("data", (chunk: Buffer) => (screen += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (screen += chunk.toString()));
  // stdin stays open while it runs: `script` ends its session when its input ends.
  return new Promise((resolve) =>
    child.once("close", (code) => {
      child.stdin.end();
      resolve({ code, screen: screen.replaceAll("\r", "") });
    }),
  );
}

describe("the caller's terminal, which the CLI hands the program", () => {
  it("takes no keystroke pushed by the program and is never its controlling terminal, in every scope", async () => {
    const ws = await scratchDir();
    const attacks = path.join(ws, "tty-attacks");
    const source = path.join(packageDir, "test", "fixtures", "tty-attacks.c");
    const built = await exec(process.env.CC || "cc", ["-O1", "-static", "-o", attacks, source]);
    expect(built.code, built.stderr).toBe(0);
    const scopes = { workspace: [], networkOnly: ["--host-fs"], allowlist: ["--allow", "127.0.0.1:1"] };
    for (const [name, flags] of Object.entries(scopes)) {
      const cli = [process.execPath, bin, ...flags, "--workspace", ws, "--", attacks];
      const { code, screen } = await onTerminal(cli.map(shellQuote).join(" "));
      expect(code, `${name}: ${screen}`).toBe(0);
      // Without the sandbox, as root, every push and take succeeds and two lines wait.
      expect(screen, name).toBe(
        [
          "isatty ok",
          "open-dev-tty ENXIO",
          "TIOCSTI EPERM",
          "TIOCSCTTY-steal EPERM",
          "TIOCSCTTY EPERM",
          "TIOCSTI-own-session EPERM",
          "pending 0",
          "",
        ].join("\n"),
      );
    }
  }, 90_000);
});
