import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { childForTest, refusedPortForTest, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { BIN } from "./helpers/run-bin.js";
import {
  builtinHarnessArgs,
  Controller,
  IDS,
  runResult,
  terminalOf,
  writeScript,
} from "./local-controller.js";

// Attacks by ANOTHER local user (uid 65534, through setpriv) on a runner's --state-dir and its
// bootstrap ticket that held when a red team tried them: each is refused with its code before
// anything is written, or finds nothing it can read. The holes that did not hold have their own
// tests (private-directory.test.ts, listen-mode-impostors.test.ts, tampered-state-dir.test.ts).

const OTHER = 65534;

/** Runs `argv` as the other user, with no supplementary group of ours. */
function asOther(argv: readonly string[]): { status: number | null; stderr: string } {
  const result = spawnSync("setpriv", [`--reuid=${OTHER}`, `--regid=${OTHER}`, "--clear-groups", ...argv], {
    encoding: "utf8",
  });
  return { status: result.status, stderr: result.stderr };
}

/** A shared parent like /tmp: everyone may create entries, nobody may remove another's (sticky). */
function sharedParent(): string {
  const dir = tempDirForTest("runner-other-user-");
  chmodSync(dir, 0o711);
  const shared = join(dir, "shared");
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return shared;
}

/** A daemon that is refused at once: exit 1 with `code` on stderr. */
async function refusedWith(stateDir: string, code: string): Promise<void> {
  const script = writeScript(tempDirForTest(), { steps: [{ ready: {} }, { sleep: 60_000 }] });
  const daemon = new Controller(builtinHarnessArgs(script, ["--state-dir", stateDir]));
  daemon.send("run.prepare", "c1");
  expect((await daemon.exited).code).toBe(1);
  expect(daemon.stderr).toContain(`code: ${code}`);
}

describe("a runner against another local user", { timeout: 60_000 }, () => {
  it("refuses a state directory another user created first, and writes nothing into it", async () => {
    const stateDir = join(sharedParent(), "run-1");
    // Pre-created private, so it even passes the mode check: only its owner gives it away.
    expect(asOther(["mkdir", "-m", "700", stateDir]).status).toBe(0);
    await refusedWith(stateDir, "ERR_RUNNER_PRIVATE_DIR_OWNER");
    expect(lstatSync(stateDir).uid).toBe(OTHER);
    expect(asOther(["ls", "-A", stateDir])).toEqual({ status: 0, stderr: "" });
    expect(execFileSync("ls", ["-A", stateDir], { encoding: "utf8" })).toBe("");
  });

  it("refuses a symlink another user planted at the path, leaving the private directory it names as it was", async () => {
    const shared = sharedParent();
    // A private directory of ours the attacker would like the runner to write into (another run's state).
    const ours = join(tempDirForTest(), "other-run");
    mkdirSync(ours, { mode: 0o700 });
    const stateDir = join(shared, "run-1");
    expect(asOther(["ln", "-s", ours, stateDir]).status).toBe(0);
    await refusedWith(stateDir, "ERR_RUNNER_PRIVATE_DIR_NOT_DIRECTORY");
    expect(readdirSync(ours)).toEqual([]);
    // A trailing slash would make the lookup follow the link: it is refused the same.
    await refusedWith(`${stateDir}/`, "ERR_RUNNER_PRIVATE_DIR_NOT_DIRECTORY");
    expect(readdirSync(ours)).toEqual([]);
  });

  it("leaves nothing another user can read after a whole run, even under umask 000", async () => {
    const dir = tempDirForTest("runner-umask-");
    chmodSync(dir, 0o755);
    const stateDir = join(dir, "state");
    const script = writeScript(dir, {
      steps: [{ ready: {} }, { waitFor: "turn.start" }, { result: runResult() }, { exit: 0 }],
    });
    const previous = process.umask(0o000);
    let daemon: Controller;
    try {
      daemon = new Controller([
        ...IDS,
        "--fake-harness",
        "builtin",
        "--script",
        script,
        "--state-dir",
        stateDir,
      ]);
    } finally {
      process.umask(previous);
    }
    daemon.send("run.prepare", "c1");
    daemon.send("session.open", "c2");
    daemon.send("turn.start", "c3", { turnId: "t1", text: "hi" });
    expect(await terminalOf(daemon)).toBe("successful_process_and_result");

    expect(lstatSync(stateDir).mode & 0o777).toBe(0o700);
    const entries = readdirSync(stateDir);
    expect(entries).toContain("runner-state.json");
    for (const entry of entries) {
      const stats = lstatSync(join(stateDir, entry));
      expect({ entry, mode: stats.mode & 0o777, uid: stats.uid }).toEqual({
        entry,
        mode: stats.isDirectory() ? 0o700 : 0o600,
        uid: process.geteuid?.(),
      });
    }
    // The other user can neither list the directory nor read a file.
    expect(readFileSync(join(stateDir, "runner-state.json"), "utf8")).toContain("run-1");
    expect(asOther(["ls", stateDir]).status).not.toBe(0);
    expect(asOther(["cat", join(stateDir, "runner-state.json")]).stderr).toContain("Permission denied");
  });

  it("shows another user no bootstrap ticket: not in the daemon's argv, and its environment unreadable", async () => {
    const ticket = "bootstrap_00000000-0000-4000-8000-0000000000dd";
    const port = await refusedPortForTest();
    // A durable daemon that keeps dialling a server that is not there: alive, holding its ticket.
    const daemon = childForTest(() =>
      spawn(
        process.execPath,
        [
          BIN,
          "--connect-url",
          `ws://127.0.0.1:${port}/connect`,
          "--state-dir",
          join(tempDirForTest(), "state"),
          ...["--runner-id", "r", "--environment-lease-id", "e", "--run-id", "run-1", "--session-id", "s"],
          ...["--turn-id", "t", "--item-id", "i", "--runner-version", "0.3.0"],
          ...["--runner-digest", `sha256:${"0".repeat(64)}`, "--reconnect-grace-ms", "60000"],
        ],
        { env: { ...process.env, PAPERCLIP_RUNNER_BOOTSTRAP_TICKET: ticket }, stdio: "ignore" },
      ),
    );
    const cmdline = `/proc/${daemon.pid}/cmdline`;
    // Its argv is world-readable (ps): the ticket never is in it.
    const argv = spawnSync("setpriv", [
      `--reuid=${OTHER}`,
      `--regid=${OTHER}`,
      "--clear-groups",
      "cat",
      cmdline,
    ]);
    expect(argv.status).toBe(0);
    expect(argv.stdout.toString()).toContain("--connect-url");
    expect(argv.stdout.toString()).not.toContain(ticket);
    // Its initial environment still holds the ticket (deleting a variable does not erase the
    // kernel's copy), so only its own user may read it.
    expect(asOther(["cat", `/proc/${daemon.pid}/environ`]).stderr).toContain("Permission denied");
    daemon.kill("SIGKILL");
  });
});
