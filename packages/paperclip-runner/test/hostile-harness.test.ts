import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isAlive, processesWith, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, vi } from "vitest";
import { preparedRunner } from "./helpers/prepared-runner.js";

// A harness that fights its supervisor, under the built bin in durable mode: nothing of it
// outlives the run, and what it prints is redacted.

describe("a hostile harness under the durable runner", { timeout: 30_000 }, () => {
  it("leaves nothing behind when the harness and its child ignore SIGTERM and it closes stdout; its secret is redacted", async () => {
    const dir = tempDirForTest();
    const marker = `hostile-harness-${process.pid}-${Date.now()}`;
    const harness = join(dir, "harness.sh");
    await writeFile(
      harness,
      [
        "#!/bin/sh",
        "trap '' TERM",
        // A long-lived shell named after the marker ($0), in the harness's group. (One started with
        // setsid leaves the group and outlives the runner: a known limit, see docs/paperclip-runner/harness.md.)
        `sh -c 'trap "" TERM; while :; do sleep 1; done' ${marker} </dev/null >/dev/null 2>&1 &`,
        'echo "OPENAI_API_KEY=sk-proj-harness-stderr-secret" >&2',
        `echo '{"type":"ready","version":"1"}'`,
        "exec 1>&-",
        "while read line; do :; done",
        "sleep 300",
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    const { runner, conn, harnessPid } = await preparedRunner(["--harness-command", harness]);
    // Forked before the harness said ready; it shows its own argv once it has exec'd.
    await vi.waitFor(() => expect(processesWith(marker)).toHaveLength(1), { timeout: 10_000 });
    conn.sendCommand({ commandId: "stop", controllerSeq: 3, type: "runner.shutdown" });
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    conn.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    expect((await runner.exited).code).toBe(0);
    expect(isAlive(harnessPid)).toBe(false);
    expect(processesWith(marker)).toEqual([]);
    const exited = conn.events().find((event) => event.eventType === "harness.exited");
    expect(exited?.payload).toMatchObject({ logs: { lines: ["stderr: OPENAI_API_KEY=[REDACTED]"] } });
    expect(JSON.stringify(conn.received)).not.toContain("harness-stderr-secret");
  });
});
