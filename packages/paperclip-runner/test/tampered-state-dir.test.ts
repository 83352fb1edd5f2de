import { chmod, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { launchRunner } from "./helpers/hand-made-runner.js";
import { preparedRunner } from "./helpers/prepared-runner.js";

// A state directory tampered with between two runs of the built bin: the next runner refuses
// each change with its code and exits 1 instead of resuming it.

describe("the durable runner's state directory, tampered with between runs", { timeout: 30_000 }, () => {
  /** A state directory a runner left when its server went away (events unacknowledged, commands journalled). */
  async function leftState(): Promise<string> {
    const { runner, conn, server } = await preparedRunner();
    await conn.eventThrough(5);
    // Gone for good: the runner's reconnects are refused until its grace ends.
    await server.close();
    expect((await runner.exited).code).toBe(1);
    return runner.stateDir;
  }

  /** What a runner started on `stateDir` says before it would connect. */
  async function restartOn(stateDir: string): Promise<string> {
    const server = await handMadeServer();
    const { code, stderr } = await launchRunner(server.url, [], stateDir).exited;
    expect(code).toBe(1);
    return stderr;
  }

  const edit = async (stateDir: string, change: (state: Record<string, unknown>) => void) => {
    const path = join(stateDir, "runner-state.json");
    const state = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    change(state);
    await writeFile(path, JSON.stringify(state));
  };

  it("refuses a state file whose cursors disagree with its outbox (ERR_RUNNER_STATE_CORRUPT)", async () => {
    // These used to be resumed: a resend with a hole, or acks past what was produced.
    const past = await leftState();
    await edit(past, (state) => {
      state.ackedSourceSeq = 50;
    });
    expect(await restartOn(past)).toContain(
      "durable state file is not valid: ackedSourceSeq is past the last event produced",
    );
    const hole = await leftState();
    await edit(hole, (state) => {
      (state.outbox as unknown[]).splice(1, 1);
    });
    expect(await restartOn(hole)).toContain(
      "durable state file is not valid: the outbox is not the events after ackedSourceSeq",
    );
  });

  it("refuses a symlinked, a world-writable, another run's and a truncated state file, each with its code", async () => {
    const cases: [string, (stateDir: string) => Promise<void>][] = [
      [
        "ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR",
        async (stateDir) => {
          const real = join(stateDir, "..", "elsewhere.json");
          await rename(join(stateDir, "runner-state.json"), real);
          await symlink(real, join(stateDir, "runner-state.json"));
        },
      ],
      [
        "ERR_RUNNER_PRIVATE_FILE_PERMISSIONS",
        (stateDir) => chmod(join(stateDir, "runner-state.json"), 0o666),
      ],
      ["ERR_RUNNER_PRIVATE_DIR_PERMISSIONS", (stateDir) => chmod(stateDir, 0o777)],
      [
        "ERR_RUNNER_STATE_BINDING_MISMATCH",
        (stateDir) =>
          edit(stateDir, (state) => {
            state.runId = "another-run";
          }),
      ],
      [
        "ERR_RUNNER_STATE_CORRUPT",
        async (stateDir) => {
          const path = join(stateDir, "runner-state.json");
          const text = await readFile(path, "utf8");
          await writeFile(path, text.slice(0, text.length / 2));
        },
      ],
    ];
    for (const [code, tamper] of cases) {
      const stateDir = await leftState();
      await tamper(stateDir);
      expect(await restartOn(stateDir)).toContain(`code: ${code}`);
    }
  });
});
