import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { buildStaticFixture } from "./attack-support.js";
import { cleanupAll, onCleanup, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

const bin = path.join(packageDir, "bin", "paperclip-sandbox.js");

/**
 * Runs `command` on a pseudo-terminal of its own (`script`), as on a person's terminal whose
 * shell reads it after the run; returns what the terminal showed, without the carriage returns.
 */
function onTerminal(command: string): Promise<{ code: number | null; screen: string }> {
  const child = spawn("script", ["-qec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
  // A terminal whose output was stopped would keep `script` waiting: it ends with the test.
  onCleanup(async () => void child.kill("SIGKILL"));
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

const SCOPE_FLAGS = { workspace: [], networkOnly: ["--host-fs"], allowlist: ["--allow", "127.0.0.1:1"] };

describe("the caller's terminal, which the CLI hands the program", () => {
  it("takes no keystroke pushed by the program and is never its controlling terminal, in every scope", async () => {
    const ws = await scratchDir();
    const attacks = await buildStaticFixture("tty-attacks", ws);
    for (const [name, flags] of Object.entries(SCOPE_FLAGS)) {
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

  it("is left as the program found it: line discipline, exclusive mode, output flow, and the CLI ends cleanly", async () => {
    const ws = await scratchDir();
    const attacks = await buildStaticFixture("tty-attacks", ws);
    for (const [name, flags] of Object.entries(SCOPE_FLAGS)) {
      const stateFile = path.join(ws, `state-${name}`);
      const cli = [process.execPath, bin, ...flags, "--workspace", ws, "--", attacks, "leave-state"];
      // After the run, on the same terminal, outside the sandbox: what the caller's shell gets.
      const command = `${cli.map(shellQuote).join(" ")}; echo "cli $?"; ${shellQuote(attacks)} state ${shellQuote(stateFile)}`;
      const { screen } = await onTerminal(command);
      // Without the filter the program sets all three: N_NULL swallows every byte after the
      // run (the caller's terminal is dead), its own tcsetattr at exit fails and Node aborts
      // the CLI (exit 134), only root may open the terminal again, and its output stays stopped.
      expect(screen, name).toBe("TIOCSETD EPERM\nTIOCEXCL EPERM\nTCOOFF EPERM\ncli 0\n\n");
      expect(await readFile(stateFile, "utf8"), name).toBe("discipline 0\nexclusive 0\nwrite ok\n");
    }
  }, 90_000);
});
