import type { Fault, ProcessSnapshot } from "@paperclipai/createos-emulator";
import { caught } from "@paperclipai/errors/testing";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ExecuteRequest, type ExecuteResult, execute, type LeaseGuard } from "../src/execute/execute.js";
import { RUNNING_COMMAND_DEADLINE_MS } from "./support/command-deadline.js";
import { FAST_TUNING, liveLog, useRunningSandbox } from "./support/emulator-fixture.js";

// Chatty, on both streams, with multi-byte characters, in several bursts (so several frames),
// a character split across two writes, and stdin echoed at the end.
const CHATTY = [
  "for b in 1 2 3 4 5 6 7 8; do",
  "  for i in $(seq 1 40); do printf 'out %d.%03d é🙂 abcdefghij\\n' $b $i; printf 'err %d.%d\\n' $b $i >&2; done",
  "  sleep 0.03",
  "done",
  "printf '\\xf0\\x9f'; sleep 0.05; printf '\\x99\\x82 split\\n'",
  "cat",
].join("\n");

const STDIN = "stdin line 1\nstdin line 2 ü\n";

const sandbox = useRunningSandbox();
let baseline: { result: ExecuteResult; stdoutLog: string; stderrLog: string };

function request(extra: Partial<ExecuteRequest> = {}): ExecuteRequest {
  return { sandboxId: sandbox.id, command: "/bin/bash", args: ["-c", CHATTY], stdin: STDIN, ...extra };
}

async function run(faults: Fault[]) {
  sandbox.emulator.faults.set({ faults });
  // Works whether `fired()` counts since start or since the last `set()`.
  const firedBefore = sandbox.emulator.faults.fired().length;
  const log = liveLog();
  const result = await execute(sandbox.client, request({ onLog: log.onLog }), FAST_TUNING);
  const fired = sandbox.emulator.faults.fired().length - firedBefore;
  sandbox.emulator.faults.clear();
  return { result, stdoutLog: log.text("stdout"), stderrLog: log.text("stderr"), fired, log };
}

function guard(): LeaseGuard & { reasons: string[] } {
  const reasons: string[] = [];
  return { reasons, block: (reason) => reasons.push(reason) };
}

function processesNotIn(before: readonly ProcessSnapshot[]): ProcessSnapshot[] {
  const known = new Set(before.map((p) => p.id));
  return sandbox.emulator.processes().filter((p) => !known.has(p.id));
}

async function expectTreeKilled(before: readonly ProcessSnapshot[]): Promise<void> {
  await expect
    .poll(
      () => {
        const fresh = processesNotIn(before);
        return fresh.length === 1 && fresh[0]!.killedTree && !fresh[0]!.treeAlive;
      },
      { message: "the new process tree killed", timeout: 15_000 },
    )
    .toBe(true);
}

beforeAll(async () => {
  const log = liveLog();
  const result = await execute(sandbox.client, request({ onLog: log.onLog }), FAST_TUNING);
  baseline = { result, stdoutLog: log.text("stdout"), stderrLog: log.text("stderr") };
});

beforeEach(() => {
  sandbox.emulator.faults.clear();
});

describe("fault-free reference run", () => {
  it("has the whole output, in order, in the result and the live log", () => {
    const { result } = baseline;
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe("out 1.001 é🙂 abcdefghij");
    expect(lines).toContain("out 8.040 é🙂 abcdefghij");
    expect(result.stdout.endsWith(`🙂 split\n${STDIN}`)).toBe(true);
    expect(result.stderr.split("\n")).toHaveLength(321);
    expect(baseline.stdoutLog).toBe(result.stdout);
    expect(baseline.stderrLog).toBe(result.stderr);
    // The faults below cut the stream after up to 4 frames; how the bursts are framed depends
    // on the emulator's reads (bursts can merge on a loaded host), so only that floor is fixed.
    expect(Number(result.metadata.lastSeq)).toBeGreaterThan(4);
  });
});

const recoverable: Array<[string, Fault[]]> = [
  ["stream reset after 2 frames", [{ kind: "drop-stream", mode: "reset", afterFrames: 2 }]],
  ["stream ended cleanly after 3 frames", [{ kind: "drop-stream", mode: "end", afterFrames: 3 }]],
  [
    "three drops in a row, each after progress",
    [{ kind: "drop-stream", mode: "reset", afterFrames: 1, times: 3 }],
  ],
  ["503 burst on connect", [{ kind: "http-status", route: "process.connect", status: 503, times: 3 }]],
  [
    "500 and 502 on connect",
    [
      { kind: "http-status", route: "process.connect", status: 500, times: 1 },
      { kind: "http-status", route: "process.connect", status: 502, times: 1, skip: 0 },
    ],
  ],
  [
    "429 with Retry-After on connect",
    [{ kind: "http-status", route: "process.connect", status: 429, times: 1, retryAfterSeconds: 1 }],
  ],
  ["stall without closing (watchdog)", [{ kind: "stall-stream", afterFrames: 2 }]],
  [
    "duplicate replay after a drop",
    [
      { kind: "drop-stream", mode: "reset", afterFrames: 2 },
      { kind: "duplicate-replay", frames: 3 },
    ],
  ],
  ["slow reads", [{ kind: "slow-stream", delayMs: 15, times: 1 }]],
  ["exit frame omitted (completeness through wait)", [{ kind: "omit-exit" }]],
  ["503 on wait", [{ kind: "http-status", route: "process.wait", status: 503, times: 2 }]],
  ["502 on stdin close", [{ kind: "http-status", route: "process.stdinClose", status: 502, times: 2 }]],
  ["504 on the stdin upload", [{ kind: "http-status", route: "files.put", status: 504, times: 1 }]],
  [
    "drop with a replay of duplicates and a 503 on reconnect",
    [
      { kind: "drop-stream", mode: "end", afterFrames: 4 },
      { kind: "duplicate-replay", frames: 5 },
      { kind: "http-status", route: "process.connect", status: 503, times: 1, skip: 1 },
    ],
  ],
  ["two drops before any frame", [{ kind: "drop-stream", mode: "reset", afterFrames: 0, times: 2 }]],
  [
    "429 with Retry-After on stdin close",
    [{ kind: "http-status", route: "process.stdinClose", status: 429, retryAfterSeconds: 1 }],
  ],
  [
    "exit frame omitted and wait failing once",
    [{ kind: "omit-exit" }, { kind: "http-status", route: "process.wait", status: 502, times: 1 }],
  ],
  [
    "stall, then a reset, then a 504",
    [
      { kind: "stall-stream", afterFrames: 1 },
      { kind: "drop-stream", mode: "reset", afterFrames: 2, skip: 1 },
      { kind: "http-status", route: "process.connect", status: 504, times: 1, skip: 2 },
    ],
  ],
];

describe("recoverable faults: output and live log byte-identical to the fault-free run", () => {
  it.each(recoverable)("%s", async (_name, faults) => {
    const outcome = await run(faults);
    expect(outcome.fired).toBeGreaterThan(0);
    expect(outcome.result.exitCode).toBe(0);
    expect(outcome.result.timedOut).toBe(false);
    expect(outcome.result.stdout).toBe(baseline.result.stdout);
    expect(outcome.result.stderr).toBe(baseline.result.stderr);
    expect(outcome.stdoutLog).toBe(baseline.stdoutLog);
    expect(outcome.stderrLog).toBe(baseline.stderrLog);
  });

  it("a drop between the two halves of a character loses and duplicates nothing", async () => {
    sandbox.emulator.faults.set({ faults: [{ kind: "drop-stream", mode: "reset", afterFrames: 1 }] });
    const firedBefore = sandbox.emulator.faults.fired().length;
    const log = liveLog();
    const result = await execute(
      sandbox.client,
      {
        sandboxId: sandbox.id,
        command: "/bin/bash",
        args: ["-c", "printf '\\xf0\\x9f'; sleep 0.2; printf '\\x99\\x82\\n'"],
        onLog: log.onLog,
      },
      FAST_TUNING,
    );
    expect(
      sandbox.emulator.faults
        .fired()
        .slice(firedBefore)
        .map((f) => f.kind),
    ).toEqual(["drop-stream"]);
    expect(result.stdout).toBe("🙂\n");
    expect(log.calls).toEqual([["stdout", "🙂\n"]]);
    expect(Number(result.metadata.connections)).toBeGreaterThan(1);
  });

  it("the reconnect budget is per outage: many drops with progress in between never exhaust it", async () => {
    const outcome = await run([{ kind: "drop-stream", mode: "reset", afterFrames: 1, times: 12 }]);
    expect(outcome.fired).toBeGreaterThan(FAST_TUNING.reconnectAttempts!);
    expect(outcome.result.stdout).toBe(baseline.result.stdout);
    expect(outcome.stdoutLog).toBe(baseline.stdoutLog);
  });
});

describe("unrecoverable faults: coded error, tree killed, lease state right", () => {
  const cases: Array<[string, Fault[], string, string]> = [
    [
      "sequence gap",
      [{ kind: "sequence-gap", afterFrames: 1 }],
      "ERR_CREATEOS_SEQUENCE_GAP",
      "CreateOS process output has a sequence gap.",
    ],
    [
      "invalid base64",
      [{ kind: "invalid-base64", afterFrames: 1 }],
      "ERR_CREATEOS_OUTPUT_INVALID",
      "CreateOS process output is invalid.",
    ],
    // A 503 with Retry-After holds the first connect back; the process has written by then,
    // and the next connect finds its journal evicted.
    [
      "eviction answered 410",
      [
        { kind: "http-status", route: "process.connect", status: 503, retryAfterSeconds: 1 },
        { kind: "evict", mode: "http-410" },
      ],
      "ERR_CREATEOS_OUTPUT_EVICTED",
      "CreateOS process output was evicted before it could be read.",
    ],
    [
      "eviction error frame",
      [{ kind: "evict", mode: "error-frame", afterFrames: 1 }],
      "ERR_CREATEOS_OUTPUT_EVICTED",
      "CreateOS process output was evicted before it could be read.",
    ],
    [
      "connect keeps answering 503",
      [{ kind: "http-status", route: "process.connect", status: 503, times: "always" }],
      "ERR_CREATEOS_OUTPUT_CONNECTION",
      "CreateOS process output connection failed.",
    ],
    [
      "connect answers 403",
      [{ kind: "http-status", route: "process.connect", status: 403, times: "always" }],
      "ERR_CREATEOS_HTTP_STATUS",
      "CreateOS request failed (HTTP 403) during output connection.",
    ],
  ];

  it.each(cases)("%s", async (_name, faults, code, message) => {
    const before = sandbox.emulator.processes();
    sandbox.emulator.faults.set({ faults });
    const leaseGuard = guard();
    const error = await caught(
      execute(
        sandbox.client,
        request({ args: ["-c", `echo go; sleep 0.2; ${CHATTY}; sleep 30`] }),
        FAST_TUNING,
        leaseGuard,
      ),
    );
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    await expectTreeKilled(before);
    expect(leaseGuard.reasons).toEqual([]);
  });

  it("the seed error carries attempts, last status, cursor and process id", async () => {
    const before = sandbox.emulator.processes();
    sandbox.emulator.faults.set({
      faults: [{ kind: "http-status", route: "process.connect", status: 503, times: "always" }],
    });
    const error = await caught(execute(sandbox.client, request({ args: ["-c", "sleep 30"] }), FAST_TUNING));
    const [created] = processesNotIn(before);
    expect(error.details).toEqual({
      attempts: FAST_TUNING.reconnectAttempts! + 1,
      lastStatus: 503,
      cursor: 0,
      processId: created!.id,
    });
    const connects = sandbox.emulator
      .requests()
      .filter((r) => r.route === "process.connect" && r.path.includes(created!.id));
    expect(connects).toHaveLength(FAST_TUNING.reconnectAttempts! + 1);
    await expectTreeKilled(before);
  });

  it("a 403 on connect is not retried", async () => {
    const before = sandbox.emulator.processes();
    sandbox.emulator.faults.set({
      faults: [{ kind: "http-status", route: "process.connect", status: 403, times: "always" }],
    });
    await caught(execute(sandbox.client, request({ args: ["-c", "sleep 30"] }), FAST_TUNING));
    const [created] = processesNotIn(before);
    expect(
      sandbox.emulator
        .requests()
        .filter((r) => r.route === "process.connect" && r.path.includes(created!.id)),
    ).toHaveLength(1);
  });

  it("a stream that keeps ending without exit while the process runs", async () => {
    const before = sandbox.emulator.processes();
    sandbox.emulator.faults.set({
      faults: [{ kind: "drop-stream", mode: "end", afterFrames: 0, times: "always" }],
    });
    const error = await caught(execute(sandbox.client, request({ args: ["-c", "sleep 30"] }), FAST_TUNING));
    expect(error.code).toBe("ERR_CREATEOS_STREAM_ENDED");
    expect(error.message).toBe("CreateOS process stream ended without an exit status.");
    await expectTreeKilled(before);
  });

  it("a lost process-create reply blocks the lease", async () => {
    for (const fault of [
      { kind: "lose-create-reply" },
      { kind: "lose-create-reply", status: 502 },
    ] as const) {
      const before = sandbox.emulator.processes();
      sandbox.emulator.faults.set({ faults: [fault] });
      const leaseGuard = guard();
      // Without stdin: a staged stdin file is removed as soon as the create fails, and a
      // process whose shell had not yet opened it would exit on the missing file.
      const error = await caught(
        execute(
          sandbox.client,
          request({ args: ["-c", "sleep 30"], stdin: undefined }),
          FAST_TUNING,
          leaseGuard,
        ),
      );
      expect(error.code).toBe("ERR_CREATEOS_PROCESS_UNCONFIRMED");
      expect(error.message).toBe(
        "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
      );
      expect(leaseGuard.reasons).toEqual(["process creation"]);
      // The process does exist: only destroying the lease can stop it.
      expect(processesNotIn(before).filter((p) => p.running)).toHaveLength(1);
      expect(
        sandbox.emulator
          .requests()
          .filter((r) => r.route === "process.create")
          .at(-1)?.fault,
      ).toBe("lose-create-reply");
    }
  });

  it("a definite 4xx on process creation is not an unconfirmed outcome", async () => {
    sandbox.emulator.faults.set({ faults: [{ kind: "http-status", route: "process.create", status: 409 }] });
    const leaseGuard = guard();
    const error = await caught(execute(sandbox.client, request(), FAST_TUNING, leaseGuard));
    expect(error.message).toBe("CreateOS request failed (HTTP 409) during process creation.");
    expect(leaseGuard.reasons).toEqual([]);
  });

  it("a failed kill is what the host reads (upstream's text); the primary error is kept; the lease blocked", async () => {
    sandbox.emulator.faults.set({
      faults: [
        { kind: "sequence-gap", afterFrames: 1 },
        { kind: "http-status", route: "process.kill", status: 503, times: "always" },
      ],
    });
    const leaseGuard = guard();
    const error = await caught(
      execute(sandbox.client, request({ args: ["-c", `${CHATTY}; sleep 30`] }), FAST_TUNING, leaseGuard),
    );
    expect(error.code).toBe("ERR_CREATEOS_CLEANUP_FAILED");
    expect(error.message).toBe("CreateOS command cleanup failed; process termination is unconfirmed.");
    expect(error.details).toMatchObject({
      primary: { code: "ERR_CREATEOS_SEQUENCE_GAP", message: "CreateOS process output has a sequence gap." },
      timedOut: false,
      leaseBlocked: true,
    });
    expect((error.cause as { code?: string }).code).toBe("ERR_CREATEOS_SEQUENCE_GAP");
    expect(leaseGuard.reasons).toEqual(["process cleanup"]);
    // The emulator confirms: the tree the plugin could not kill still runs.
    const survivor = sandbox.emulator.processes().find((p) => p.id === error.details?.processId);
    expect(survivor).toMatchObject({ running: true, killedTree: false });
  });

  it("a timeout whose kill fails is reported as unconfirmed termination, not as a plain timeout", async () => {
    sandbox.emulator.faults.set({
      faults: [{ kind: "http-status", route: "process.kill", status: 500, times: "always" }],
    });
    const leaseGuard = guard();
    const error = await caught(
      execute(
        sandbox.client,
        request({ args: ["-c", "echo partial; sleep 30"], timeoutMs: RUNNING_COMMAND_DEADLINE_MS }),
        FAST_TUNING,
        leaseGuard,
      ),
    );
    expect(error.code).toBe("ERR_CREATEOS_CLEANUP_FAILED");
    expect(error.message).toBe("CreateOS command cleanup failed; process termination is unconfirmed.");
    expect(error.details).toMatchObject({ timedOut: true, leaseBlocked: true });
    expect(leaseGuard.reasons).toEqual(["process cleanup"]);
  });

  it("a failing live-log callback is not mistaken for a network drop", async () => {
    const before = sandbox.emulator.processes();
    const error = await caught(
      execute(
        sandbox.client,
        request({
          args: ["-c", "echo one; sleep 30"],
          onLog: () => {
            throw new Error("sink closed");
          },
        }),
        FAST_TUNING,
      ),
    );
    expect(error.code).toBe("ERR_CREATEOS_LIVE_LOG_FAILED");
    expect((error.cause as Error).message).toBe("sink closed");
    const [created] = processesNotIn(before);
    expect(
      sandbox.emulator
        .requests()
        .filter((r) => r.route === "process.connect" && r.path.includes(created!.id)),
    ).toHaveLength(1);
    await expectTreeKilled(before);
  });
});
