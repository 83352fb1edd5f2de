import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { execute } from "../src/execute/execute.js";
import { RUNNING_COMMAND_DEADLINE_MS } from "./support/command-deadline.js";
import { FAST_TUNING, liveLog, testClient, useRunningSandbox } from "./support/emulator-fixture.js";

const sandbox = useRunningSandbox();

describe("execute against the emulator", () => {
  it("runs a command and returns its output, exit code and metadata", async () => {
    const log = liveLog();
    const result = await execute(
      sandbox.client,
      {
        sandboxId: sandbox.id,
        command: "/bin/bash",
        args: ["-c", 'printf "out é🙂\\n"; printf "err\\n" >&2; exit 3'],
        onLog: log.onLog,
      },
      FAST_TUNING,
    );
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      timedOut: false,
      stdout: "out é🙂\n",
      stderr: "err\n",
    });
    expect(result.metadata).toMatchObject({ outputTruncated: false, stdoutDroppedChars: 0 });
    expect(typeof result.metadata.processId).toBe("string");
    expect(log.text("stdout")).toBe(result.stdout);
    expect(log.text("stderr")).toBe(result.stderr);
  });

  it("sends stdin close, connect and the completeness wait together, right after the create", async () => {
    const spans: Array<{ path: string; start: number; end: number }> = [];
    const counting = testClient(sandbox.emulator, {
      fetch: async (input, init) => {
        const span = { path: new URL(String(input)).pathname, start: performance.now(), end: Infinity };
        spans.push(span);
        const response = await fetch(input, init);
        span.end = performance.now();
        return response;
      },
    });
    const result = await execute(
      counting,
      { sandboxId: sandbox.id, command: "/bin/echo", args: ["hi"] },
      FAST_TUNING,
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: "hi\n" });
    const [create, ...rest] = spans;
    expect(create!.path.endsWith("/processes")).toBe(true);
    expect(rest.map((span) => span.path.split("/").at(-1)).sort()).toEqual(["close", "connect", "wait"]);
    // One round trip after the create: each of them starts before any of them is answered.
    const firstAnswer = Math.min(...rest.map((span) => span.end));
    expect(rest.every((span) => span.start >= create!.end && span.start < firstAnswer)).toBe(true);
  });

  it("a command running longer than the early wait asks wait again after its exit frame", async () => {
    const before = sandbox.emulator.requests().length;
    const result = await execute(
      sandbox.client,
      { sandboxId: sandbox.id, command: "/bin/bash", args: ["-c", "sleep 1; echo done"] },
      { ...FAST_TUNING, earlyWaitMs: 20 },
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: "done\n" });
    const waits = sandbox.emulator
      .requests()
      .slice(before)
      .filter((request) => request.route === "process.wait");
    expect(waits.map((request) => request.status)).toEqual([408, 200]);
  });

  it("passes args, env, cwd and stdin exactly", async () => {
    const stdin = 'line one\nit\'s "quoted" $HOME `x`\n';
    const result = await execute(
      sandbox.client,
      {
        sandboxId: sandbox.id,
        command: "/bin/bash",
        args: [
          "-c",
          'printf "%s|" "$@"; printf "%s|" "$MY_VAR"; basename "$PWD"; cat',
          "zero",
          "a b",
          "$(nope)",
          "'q'",
        ],
        env: { MY_VAR: "v a'l" },
        cwd: "/paperclip-workspace",
        stdin,
      },
      FAST_TUNING,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`a b|$(nope)|'q'|v a'l|paperclip-workspace\n${stdin}`);
  });

  it("fails a missing cwd through the script instead of running elsewhere", async () => {
    const result = await execute(
      sandbox.client,
      { sandboxId: sandbox.id, command: "pwd", cwd: "/paperclip-workspace/missing" },
      FAST_TUNING,
    );
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
  });

  it("reports a signal exit", async () => {
    const result = await execute(
      sandbox.client,
      { sandboxId: sandbox.id, command: "/bin/bash", args: ["-c", "kill -KILL $$"] },
      FAST_TUNING,
    );
    expect(result.signal).toBe("SIGKILL");
    expect(result.timedOut).toBe(false);
  });

  it("keeps the last 4 Mi characters (here: a small limit) and counts what it dropped", async () => {
    const result = await execute(
      sandbox.client,
      {
        sandboxId: sandbox.id,
        command: "/bin/bash",
        args: ["-c", 'for i in $(seq 1 2000); do echo "line $i"; done'],
      },
      { ...FAST_TUNING, tailChars: 100 },
    );
    const full = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}\n`).join("");
    expect(result.stdout).toBe(full.slice(-100));
    expect(result.metadata).toMatchObject({
      outputTruncated: true,
      stdoutDroppedChars: full.length - 100,
      stdoutDroppedBytes: full.length - 100,
    });
  });

  it("a silent command longer than the stall timeout keeps its one connection (heartbeats count)", async () => {
    const result = await execute(
      sandbox.client,
      { sandboxId: sandbox.id, command: "/bin/bash", args: ["-c", "sleep 1.5; echo done"] },
      { ...FAST_TUNING, stallTimeoutMs: 500 },
    );
    expect(result.stdout).toBe("done\n");
    expect(result.metadata.connections).toBe(1);
    expect(result.metadata.reconnects).toBe(0);
  });

  it("learns the heartbeat cadence: a stall is caught in a few heartbeats, not the configured 15 s", async () => {
    sandbox.emulator.faults.set({ faults: [{ kind: "stall-stream", afterFrames: 1 }] });
    const result = await execute(
      sandbox.client,
      // Idle first (heartbeats every 100 ms), then one frame, then the stream stalls.
      {
        sandboxId: sandbox.id,
        command: "/bin/bash",
        args: ["-c", "sleep 0.6; echo a; sleep 0.3; echo b"],
        timeoutMs: 8_000,
      },
      { ...FAST_TUNING, stallTimeoutMs: 15_000 },
    );
    sandbox.emulator.faults.clear();
    expect(result.timedOut).toBe(false);
    expect(result.stdout).toBe("a\nb\n");
    expect(result.metadata.reconnects).toBe(1);
  });

  it("on timeout kills the tree and returns the partial output", async () => {
    const result = await execute(
      sandbox.client,
      {
        sandboxId: sandbox.id,
        command: "/bin/bash",
        args: ["-c", "echo started; sleep 30 & wait"],
        timeoutMs: RUNNING_COMMAND_DEADLINE_MS,
      },
      FAST_TUNING,
    );
    expect(result).toMatchObject({ exitCode: null, timedOut: true, stdout: "started\n" });
    const processId = String(result.metadata.processId);
    await expect
      .poll(
        () => sandbox.emulator.processes().some((p) => p.id === processId && p.killedTree && !p.treeAlive),
        {
          message: "tree killed",
          timeout: 15_000,
        },
      )
      .toBe(true);
  });

  it("on cancel kills the tree and throws the upstream message", async () => {
    const controller = new AbortController();
    const log = liveLog();
    const running = execute(
      sandbox.client,
      {
        sandboxId: sandbox.id,
        command: "/bin/bash",
        args: ["-c", "echo ready; sleep 30"],
        signal: controller.signal,
        onLog: (stream, text) => {
          log.onLog(stream, text);
          controller.abort(new Error("operator cancel"));
        },
      },
      FAST_TUNING,
    );
    const error = await caught(running);
    expect(error.code).toBe("ERR_CREATEOS_CANCELLED");
    expect(error.message).toBe("CreateOS command was cancelled.");
    const processes = sandbox.emulator.processes().filter((p) => p.sandboxId === sandbox.id);
    await expect
      .poll(() => sandbox.emulator.processes().some((p) => p.killedTree && !p.treeAlive), {
        message: "tree killed",
        timeout: 15_000,
      })
      .toBe(true);
    expect(processes.length).toBeGreaterThan(0);
  });

  it("validates before sending anything", async () => {
    const before = sandbox.emulator.requests().length;
    expect((await caught(execute(sandbox.client, { sandboxId: sandbox.id, command: "" }))).message).toBe(
      "A sandbox command is required.",
    );
    expect(
      (
        await caught(
          execute(sandbox.client, { sandboxId: sandbox.id, command: "x", env: { "BAD-KEY": "1" } }),
        )
      ).message,
    ).toBe("Invalid sandbox environment variable.");
    expect(
      (await caught(execute(sandbox.client, { sandboxId: sandbox.id, command: "x", args: ["a\0b"] })))
        .message,
    ).toBe("Sandbox command values cannot contain NUL.");
    expect(sandbox.emulator.requests().length).toBe(before);
  });
});
