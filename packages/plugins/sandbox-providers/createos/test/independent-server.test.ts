/**
 * The plugin, as a downstream user loads it (the built package), against an independent
 * CreateOS-compatible server that shares no code with the package's emulator. Every
 * recoverable fault must give exactly the fault-free output and live log; every
 * unrecoverable one a coded error, with the process tree killed and nothing left open.
 */
import { fileURLToPath } from "node:url";
import { PaperclipError } from "@paperclipai/errors";
import { caught } from "@paperclipai/errors/testing";
import type { PluginEnvironmentLease } from "@paperclipai/plugin-sdk";
import { createEnvironmentTestHarness } from "@paperclipai/plugin-sdk/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CreateosClient, type ExecuteResult, type ExecuteTuning, execute } from "../dist/client.js";
import { createPlugin, manifest } from "../dist/index.js";
import { RUNNING_COMMAND_DEADLINE_MS } from "./support/command-deadline.js";
import {
  type ConnectPlan,
  type IndependentServer,
  type JournalFrame,
  type ServerScript,
  startIndependentServer,
} from "./support/independent-server.js";
import { hostReusable } from "./support/plugin-harness.js";
import { trackTimersCreatedIn } from "./support/timer-tracker.js";

const SANDBOX = "sb-independent";
const TUNING: Partial<ExecuteTuning> = {
  stallTimeoutMs: 400,
  waitProbeMs: 50,
  cleanupTimeoutMs: 2_000,
  reconnectAttempts: 3,
};

/** Both streams cut at arbitrary byte offsets, so characters straddle data frames. */
function buildJournal(): { frames: JournalFrame[]; stdout: string; stderr: string } {
  const stdout = Array.from({ length: 40 }, (_, i) => `out ${i} é🙂 ${"ab".repeat(i % 5)} ✓\n`).join("");
  const stderr = Array.from({ length: 15 }, (_, i) => `err ${i} ü 日本\n`).join("");
  const pieces = (text: string, stream: "stdout" | "stderr", sizes: number[]): JournalFrame[] => {
    const bytes = Buffer.from(text, "utf8");
    const out: JournalFrame[] = [];
    for (let at = 0, i = 0; at < bytes.length; i++) {
      const size = sizes[i % sizes.length]!;
      out.push({ stream, bytes: bytes.subarray(at, at + size) });
      at += size;
    }
    return out;
  };
  const out = pieces(stdout, "stdout", [37, 5, 61, 2, 90, 13]);
  const err = pieces(stderr, "stderr", [11, 29, 3, 47]);
  const frames: JournalFrame[] = [];
  while (out.length > 0 || err.length > 0) {
    const o = out.shift();
    if (o) frames.push(o);
    const o2 = out.shift();
    if (o2) frames.push(o2);
    const e = err.shift();
    if (e) frames.push(e);
  }
  return { frames, stdout, stderr };
}

const JOURNAL = buildJournal();
const NEWEST = JOURNAL.frames.length;
const EXIT = { exitCode: 3, signal: null };

let server: IndependentServer;
let client: InstanceType<typeof CreateosClient>;
let baseline: Run;

interface Run {
  result: ExecuteResult;
  log: Array<[string, string]>;
  blocked: string[];
}

function script(extra: Partial<ServerScript> = {}): ServerScript {
  return { frames: JOURNAL.frames, exit: EXIT, ...extra };
}

async function run(next: ServerScript, tuning: Partial<ExecuteTuning> = {}): Promise<Run> {
  server.use(next);
  server.reset();
  const log: Array<[string, string]> = [];
  const blocked: string[] = [];
  const result = await execute(
    client,
    {
      sandboxId: SANDBOX,
      command: "/usr/bin/chatty",
      args: ["a b", "ü"],
      stdin: "input ü\n",
      onLog: (stream, text) => log.push([stream, text]),
    },
    { ...TUNING, ...tuning },
    { block: (reason) => blocked.push(reason) },
  );
  return { result, log, blocked };
}

async function failure(next: ServerScript, tuning: Partial<ExecuteTuning> = {}) {
  const blocked: string[] = [];
  server.use(next);
  server.reset();
  const log: Array<[string, string]> = [];
  const error = await caught(
    execute(
      client,
      { sandboxId: SANDBOX, command: "/usr/bin/chatty", onLog: (stream, text) => log.push([stream, text]) },
      { ...TUNING, ...tuning },
      { block: (reason) => blocked.push(reason) },
    ),
  );
  return { error, blocked, log };
}

// The plugin under test is its build; vitest maps its stack frames to src/ through the
// build's source maps, so a timer created in either is the plugin's.
const pluginTimers = trackTimersCreatedIn(
  ["../dist/", "../src/"].map((dir) => fileURLToPath(new URL(dir, import.meta.url))),
);

function expectKilled(): void {
  const kills = server.kills();
  expect(kills.length).toBeGreaterThanOrEqual(1);
  expect(kills[0]!.query.get("grace_ms")).toBe("1000");
}

beforeAll(async () => {
  server = await startIndependentServer(7, pluginTimers.retryWaits);
  client = new CreateosClient({
    apiUrl: `${server.url}/v1/`,
    apiKey: server.apiKey,
    rateLimit: { burst: 1_000, refillPerMinute: 600_000 },
    backoff: { baseMs: 10, capMs: 80, maxRetryAfterMs: 3_000 },
    maxAttempts: 4,
    requestTimeoutMs: 5_000,
  });
  baseline = await run(script({ connect: () => ({ heartbeatEvery: 4 }) }));
});

beforeEach(() => {
  pluginTimers.reset();
});

afterEach(async () => {
  // Whatever happened, the plugin leaves no stream open and no (referenced) timer behind it.
  await expect
    .poll(() => server.openStreams() === 0, { message: "every connect stream closed", timeout: 15_000 })
    .toBe(true);
  await expect
    .poll(() => pluginTimers.live() === 0, { message: "no timer left behind", timeout: 15_000 })
    .toBe(true);
  expect(server.strayRequests).toEqual([]);
  expect(server.earlyRetries).toEqual([]);
});

afterAll(async () => {
  await server.close();
});

describe("the fault-free run against the independent server", () => {
  it("returns every byte of both streams, decoded across frame boundaries", () => {
    expect(baseline.result).toMatchObject({
      exitCode: 3,
      signal: null,
      timedOut: false,
      stdout: JOURNAL.stdout,
      stderr: JOURNAL.stderr,
    });
    expect(baseline.result.metadata).toMatchObject({ lastSeq: NEWEST, outputTruncated: false });
    const joined = (stream: string) =>
      baseline.log
        .filter(([s]) => s === stream)
        .map(([, t]) => t)
        .join("");
    expect(joined("stdout")).toBe(JOURNAL.stdout);
    expect(joined("stderr")).toBe(JOURNAL.stderr);
    // The fixture really splits characters between frames.
    expect(JOURNAL.frames.some((frame) => frame.bytes.toString("utf8").includes("\ufffd"))).toBe(true);
  });

  it("sent the documented calls: the key on each, stdin staged as a file and removed, bash -c, no login shell", async () => {
    await run(script());
    const routes = server.seen.map((r) => r.route);
    // Upload, create, then stdin close, connect and wait together (their arrival order is the
    // network's), then the upload's removal.
    expect(routes.slice(0, 2)).toEqual(["files.put", "process.create"]);
    expect(routes.slice(2, 5).sort()).toEqual(["process.connect", "process.stdinClose", "process.wait"]);
    expect(routes.slice(5)).toEqual(["sandbox.exec"]);
    const connect = server.seen.find((r) => r.route === "process.connect")!;
    const wait = server.seen.find((r) => r.route === "process.wait")!;
    expect(server.seen.every((r) => r.key === server.apiKey)).toBe(true);
    const upload = server.seen[0]!;
    expect(upload.body.toString("utf8")).toBe("input ü\n");
    const created = JSON.parse(server.seen[1]!.body.toString("utf8")) as { cmd: string; args: string[] };
    expect(created.cmd).toBe("/bin/bash");
    expect(created.args[0]).toBe("-c");
    expect(created.args[1]).toBe(`exec -- '/usr/bin/chatty' 'a b' 'ü' < '${upload.query.get("path")}'`);
    expect(connect.query.get("after")).toBe("0");
    // The stream asks for NDJSON, a content-negotiating server must not answer it with a JSON reply.
    expect(connect.accept).toContain("application/x-ndjson");
    expect(wait.accept).toBe("application/json");
    expect(JSON.parse(server.seen[5]!.body.toString("utf8"))).toEqual({
      cmd: "/bin/rm",
      args: ["-f", "--", upload.query.get("path")],
    });
  });

  it("creates a /bin/bash command with no cwd, env or stdin as it is, any other through the wrapper", async () => {
    const created = async (request: { command: string; args: string[]; cwd?: string }) => {
      server.use(script());
      server.reset();
      const result = await execute(client, { sandboxId: SANDBOX, ...request }, TUNING);
      expect(result.stdout).toBe(JOURNAL.stdout);
      const create = server.seen.find((r) => r.route === "process.create")!;
      return JSON.parse(create.body.toString("utf8")) as unknown;
    };
    expect(await created({ command: "/bin/bash", args: ["-c", "printf x", "n0"] })).toEqual({
      cmd: "/bin/bash",
      args: ["-c", "printf x", "n0"],
    });
    expect(await created({ command: "/bin/bash", args: ["-c", "pwd"], cwd: "/w" })).toEqual({
      cmd: "/bin/bash",
      args: ["-c", "cd -- '/w' || exit\nexec -- '/bin/bash' '-c' 'pwd'"],
    });
    expect(await created({ command: "bash", args: ["-c", "true"] })).toEqual({
      cmd: "/bin/bash",
      args: ["-c", "exec -- 'bash' '-c' 'true'"],
    });
  });
});

type Recoverable = [string, Partial<ServerScript>, Partial<ExecuteTuning>?];

const recoverable: Recoverable[] = [
  [
    "frames split at arbitrary bytes (mid-line, mid-UTF-8, mid-base64)",
    {
      connect: () => ({ framing: { split: "bytes", maxChunk: 7, extraFields: true } }),
    },
  ],
  [
    "every frame in one chunk, Content-Length, Connection: close",
    {
      connect: () => ({ framing: { split: "whole", body: "length", closeConnection: true } }),
    },
  ],
  [
    "CRLF line endings with blank keep-alive lines",
    {
      connect: () => ({
        heartbeatEvery: 3,
        framing: { lineEnding: "\r\n", blankLines: true, split: "bytes", maxChunk: 40 },
      }),
    },
  ],
  [
    "no trailing newline on the exit frame, body delimited by close",
    {
      connect: () => ({ framing: { trailingNewline: false, body: "close", split: "whole" } }),
    },
  ],
  [
    "no trailing newline on the last data frame before a clean end",
    {
      connect: (attempt) =>
        attempt === 1 ? { until: 9, exit: false, framing: { trailingNewline: false } } : {},
    },
  ],
  [
    "unknown fields in frames and envelopes, unknown frame types",
    {
      envelopeExtras: true,
      connect: () => ({ heartbeatEvery: 2, framing: { extraFields: true, unknownFrames: true } }),
    },
  ],
  [
    "no heartbeats at all, with silences longer than the stall timeout",
    {
      connect: (attempt) => (attempt <= 5 ? { until: attempt * 3, exit: false, end: "stall" } : {}),
    },
  ],
  [
    "a connection of heartbeats only, then a clean end; wait says still running",
    {
      connect: (attempt): ConnectPlan =>
        attempt === 1 ? { until: 0, exit: false, idleHeartbeats: { intervalMs: 20, forMs: 120 } } : {},
      wait: (attempt) => (attempt === 1 ? { status: 408 } : undefined),
    },
  ],
  [
    "the exit frame arrives before the tail; wait's newest_seq forces a replay",
    {
      connect: (attempt) => (attempt === 1 ? { until: 12, exit: true } : {}),
    },
  ],
  [
    "wait answers 408 three times while the stream ends without exit",
    {
      connect: (attempt) => (attempt <= 3 ? { until: 10, exit: false } : {}),
      wait: (attempt) => (attempt <= 3 ? { status: 408, body: '{"status":"error"}' } : undefined),
    },
  ],
  [
    "wait leaves out newest_seq and the stream ends early without exit: replayed to the exit frame",
    { newestSeq: null, connect: (attempt) => (attempt === 1 ? { until: 13, exit: false } : {}) },
  ],
  ["wait leaves out newest_seq after a complete stream with its exit frame", { newestSeq: null }],
  [
    "wait answers 408 twice right after the exit frame",
    {
      wait: (attempt) => (attempt <= 2 ? { status: 408 } : undefined),
    },
  ],
  [
    "a socket reset mid-line",
    {
      connect: (attempt) => (attempt === 1 ? { until: 8, exit: false, cutMidLine: true, end: "reset" } : {}),
    },
  ],
  [
    "a clean end mid-line",
    {
      connect: (attempt) => (attempt === 1 ? { until: 5, exit: false, cutMidLine: true, end: "end" } : {}),
    },
  ],
  [
    "a replay that starts before the cursor (duplicates)",
    {
      connect: (attempt, after) =>
        attempt === 1 ? { until: 14, exit: false, end: "reset" } : { from: Math.max(1, after - 6) },
    },
  ],
  [
    "a stall after heartbeats were seen (watchdog)",
    {
      connect: (attempt) => (attempt === 1 ? { until: 6, exit: false, heartbeatEvery: 2, end: "stall" } : {}),
    },
  ],
  [
    "503 with Retry-After in seconds on connect",
    {
      faults: { "process.connect": [{ status: 503, retryAfter: { seconds: 1 } }] },
    },
  ],
  [
    "429 with Retry-After as an HTTP-date on connect",
    {
      // At least a second ahead: a client that ignored it would retry well before then.
      faults: { "process.connect": [{ status: 429, retryAfter: { seconds: 1, asDate: true } }] },
    },
  ],
  [
    "500 without a body, 502 and 504 on connect",
    {
      faults: { "process.connect": [{ status: 500 }, { status: 502 }, { status: 504 }] },
    },
  ],
  ["503 and 502 on wait", { faults: { "process.wait": [{ status: 503 }, { status: 502 }] } }],
  [
    "502, then 429 with an HTTP-date, on stdin close",
    {
      faults: {
        "process.stdinClose": [{ status: 502 }, { status: 429, retryAfter: { seconds: 1, asDate: true } }],
      },
    },
  ],
  ["504 on the stdin upload", { faults: { "files.put": [{ status: 504 }] } }],
  ["a dropped connection on wait", { faults: { "process.wait": ["destroy"] } }],
];

describe("recoverable faults: output and live log identical to the fault-free run", () => {
  it.each(recoverable)("%s", async (_name, extra, tuning) => {
    const { result, log, blocked } = await run(script(extra), tuning);
    expect(result.stdout).toBe(baseline.result.stdout);
    expect(result.stderr).toBe(baseline.result.stderr);
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(log).toEqual(baseline.log);
    expect(blocked).toEqual([]);
    expect(server.kills()).toEqual([]);
    expect(server.seen.every((r) => r.key === server.apiKey)).toBe(true);
  });

  it.each(["SIGKILL", "SIGRTMIN+3", "killed"])(
    "an exit by signal %s (no exit_code) is reported as such",
    async (name) => {
      const { result, log } = await run(script({ exit: { exitCode: null, signal: name } }));
      expect(result).toMatchObject({ exitCode: null, signal: name, stdout: JOURNAL.stdout });
      expect(log).toEqual(baseline.log);
    },
  );

  it("an exit by signal known only from wait (the stream ends without its exit frame)", async () => {
    const { result, log } = await run(
      script({ exit: { exitCode: 137, signal: "SIGKILL" }, connect: () => ({ exit: false }) }),
    );
    expect(result).toMatchObject({ exitCode: 137, signal: "SIGKILL", stdout: JOURNAL.stdout });
    expect(log).toEqual(baseline.log);
  });
});

describe("unrecoverable faults: coded errors, the tree killed, nothing left open", () => {
  it("a connect that answers 200 with an HTML page", async () => {
    const { error } = await failure(
      script({ connect: () => ({ rawBody: "<html><body>Bad gateway</body></html>" }) }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_OUTPUT_INVALID")).toBe(true);
    expectKilled();
  });

  it("a JSON envelope with status error on wait", async () => {
    const { error } = await failure(
      script({ wait: () => ({ status: 200, body: '{"status":"error","error":{"message":"boom"}}' }) }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_UNSUCCESSFUL_RESPONSE")).toBe(true);
    expect(error.message).toBe("CreateOS returned an unsuccessful response.");
    expectKilled();
  });

  it("a connect that answers 200 with an error envelope instead of frames", async () => {
    const { error } = await failure(
      script({ connect: () => ({ rawBody: '{"status":"error","error":{"message":"no such process"}}\n' }) }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_UNSUCCESSFUL_RESPONSE")).toBe(true);
    expectKilled();
  });

  it("the command's timeout: the tree killed, the partial output returned", async () => {
    server.use(
      script({
        connect: () => ({ until: 9, exit: false, idleHeartbeats: { intervalMs: 30, forMs: 60_000 } }),
      }),
    );
    server.reset();
    const log: Array<[string, string]> = [];
    const result = await execute(
      client,
      {
        sandboxId: SANDBOX,
        command: "/usr/bin/chatty",
        timeoutMs: RUNNING_COMMAND_DEADLINE_MS,
        onLog: (s, t) => log.push([s, t]),
      },
      TUNING,
    );
    expect(result).toMatchObject({ exitCode: null, signal: null, timedOut: true });
    expect(log).toEqual(baseline.log.slice(0, log.length));
    expect(result.stdout).toBe(
      log
        .filter(([s]) => s === "stdout")
        .map(([, t]) => t)
        .join(""),
    );
    expect(result.metadata.lastSeq).toBe(9);
    expectKilled();
  });

  it("cancellation: ERR_CREATEOS_CANCELLED and the tree killed", async () => {
    server.use(script({ connect: () => ({ until: 4, exit: false, end: "stall", heartbeatEvery: 1 }) }));
    server.reset();
    const controller = new AbortController();
    const pending = execute(
      client,
      {
        sandboxId: SANDBOX,
        command: "/usr/bin/chatty",
        signal: controller.signal,
        onLog: () => controller.abort(new Error("stop")),
      },
      TUNING,
    );
    const error = await pending.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_CANCELLED")).toBe(true);
    expectKilled();
  });

  it("invalid JSON on wait", async () => {
    const { error } = await failure(script({ wait: () => ({ status: 200, body: "<html>ok</html>" }) }));
    expect(PaperclipError.is(error, "ERR_CREATEOS_INVALID_JSON")).toBe(true);
    expectKilled();
  });

  it("an invalid process id: creation unconfirmed, the lease blocked, nothing killed by a bad id", async () => {
    const { error, blocked } = await failure(script({ processId: "../../etc" }));
    expect(PaperclipError.is(error, "ERR_CREATEOS_PROCESS_UNCONFIRMED")).toBe(true);
    expect(PaperclipError.is(error.cause, "ERR_CREATEOS_INVALID_RESOURCE_ID")).toBe(true);
    expect(blocked).toEqual(["process creation"]);
    expect(server.kills()).toEqual([]);
    expect(server.count("process.connect")).toBe(0);
  });

  it("a redirect on connect is refused, not retried, and the key never goes to the Location", async () => {
    const { error } = await failure(
      script({ faults: { "process.connect": [{ status: 307, location: `${server.url}/stolen/connect` }] } }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_REDIRECT")).toBe(true);
    expect(error.message).toBe(
      "CreateOS request was redirected during output connection; redirects are refused.",
    );
    expect(server.count("process.connect")).toBe(1);
    expect(server.seen.some((r) => r.path.startsWith("/stolen"))).toBe(false);
    expectKilled();
  });

  it("a redirect on an idempotent JSON call is refused without a retry", async () => {
    const { error } = await failure(
      script({ faults: { "process.stdinClose": [{ status: 302, location: `${server.url}/stolen` }] } }),
    );
    expect(error.message).toBe("CreateOS request was redirected during stdin close; redirects are refused.");
    expect(server.count("process.stdinClose")).toBe(1);
    expectKilled();
  });

  it.each([401, 403])("%i on connect is not retried", async (status) => {
    const { error } = await failure(script({ faults: { "process.connect": [{ status }] } }));
    expect(PaperclipError.is(error, "ERR_CREATEOS_HTTP_STATUS")).toBe(true);
    expect(error.message).toBe(`CreateOS request failed (HTTP ${status}) during output connection.`);
    expect(server.count("process.connect")).toBe(1);
    expectKilled();
  });

  it("403 on stdin close is not retried", async () => {
    const { error } = await failure(script({ faults: { "process.stdinClose": [{ status: 403 }] } }));
    expect(error.message).toBe("CreateOS request failed (HTTP 403) during stdin close.");
    expect(server.count("process.stdinClose")).toBe(1);
    expectKilled();
  });

  it("410 on a reconnect: output evicted", async () => {
    const { error } = await failure(
      script({
        connect: (attempt) =>
          attempt === 1 ? { until: 4, exit: false, end: "reset" } : { answer: { status: 410 } },
      }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_OUTPUT_EVICTED")).toBe(true);
    expectKilled();
  });

  it("an output_offset_expired error frame: output evicted", async () => {
    const { error } = await failure(
      script({
        connect: () => ({ until: 2, errorFrame: "output_offset_expired", framing: { extraFields: true } }),
      }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_OUTPUT_EVICTED")).toBe(true);
    expect(error.message).toBe("CreateOS process output was evicted before it could be read.");
    expectKilled();
  });

  it("a stream that ends without exit forever, heartbeats and replays included", async () => {
    const { error } = await failure(
      script({
        connect: (_attempt, after) => ({
          from: 1,
          until: Math.max(after, 5),
          exit: false,
          leadingHeartbeats: 2,
        }),
        wait: () => ({ status: 408 }),
      }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_STREAM_ENDED")).toBe(true);
    expect(error.message).toBe("CreateOS process stream ended without an exit status.");
    expect(error.details).toMatchObject({ cursor: 5, attempts: 4 });
    expectKilled();
  });

  it("an outage longer than the budget: ERR_CREATEOS_OUTPUT_CONNECTION with its details", async () => {
    const { error, log } = await failure(
      script({
        connect: (attempt) =>
          attempt === 1
            ? { until: 7, exit: false, end: "reset" }
            : { answer: attempt % 2 === 0 ? { status: 502 } : "destroy" },
      }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_OUTPUT_CONNECTION")).toBe(true);
    expect(error.message).toBe("CreateOS process output connection failed.");
    const processId = server.seen.find((r) => r.route === "process.connect")!.path.split("/")[5];
    expect(error.details).toEqual({ attempts: 4, lastStatus: 502, cursor: 7, processId });
    expect(log.map(([, t]) => t).join("")).toBe(
      baseline.log
        .slice(0, log.length)
        .map(([, t]) => t)
        .join(""),
    );
    expectKilled();
  });

  it("a kill that fails is what the host reads; the primary error is kept beside it", async () => {
    const { error, blocked } = await failure(
      script({
        connect: () => ({ answer: { status: 503 } }),
        faults: { "process.kill": [{ status: 500 }] },
      }),
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_CLEANUP_FAILED")).toBe(true);
    expect(error.message).toBe("CreateOS command cleanup failed; process termination is unconfirmed.");
    expect(PaperclipError.is(error.cause, "ERR_CREATEOS_OUTPUT_CONNECTION")).toBe(true);
    expect(error.details).toMatchObject({
      leaseBlocked: true,
      timedOut: false,
      primary: {
        code: "ERR_CREATEOS_OUTPUT_CONNECTION",
        message: "CreateOS process output connection failed.",
      },
    });
    expect(blocked).toEqual(["process cleanup"]);
    expect(server.kills()).toHaveLength(1);
  });

  it("a timeout whose kill fails is reported as unconfirmed termination, the lease blocked", async () => {
    server.use(
      script({
        connect: () => ({ until: 3, exit: false, idleHeartbeats: { intervalMs: 30, forMs: 60_000 } }),
        faults: { "process.kill": [{ status: 500 }] },
      }),
    );
    server.reset();
    const blocked: string[] = [];
    const error = await execute(
      client,
      { sandboxId: SANDBOX, command: "/usr/bin/chatty", timeoutMs: RUNNING_COMMAND_DEADLINE_MS },
      TUNING,
      { block: (reason) => blocked.push(reason) },
    ).then(
      () => undefined,
      (reason: unknown) => reason as PaperclipError,
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_CLEANUP_FAILED")).toBe(true);
    expect(error?.message).toBe("CreateOS command cleanup failed; process termination is unconfirmed.");
    expect(error?.details).toMatchObject({ timedOut: true, leaseBlocked: true });
    expect(blocked).toEqual(["process cleanup"]);
    expect(server.kills()).toHaveLength(1);
  });

  it("a sequence gap", async () => {
    const { error } = await failure(script({ connect: () => ({ from: 3 }) }));
    expect(PaperclipError.is(error, "ERR_CREATEOS_SEQUENCE_GAP")).toBe(true);
    expectKilled();
  });
});

describe("through the plugin's hooks, as the host drives them", () => {
  async function pluginOnServer() {
    const plugin = createPlugin({ env: {} });
    const d = plugin.definition;
    const harness = createEnvironmentTestHarness({
      manifest,
      environmentDriver: {
        driverKey: "createos",
        onValidateConfig: (params) => d.onEnvironmentValidateConfig!(params),
        onAcquireLease: (params) => d.onEnvironmentAcquireLease!(params),
        onResumeLease: (params) => d.onEnvironmentResumeLease!(params),
        onReleaseLease: (params) => d.onEnvironmentReleaseLease!(params),
        onDestroyLease: (params) => d.onEnvironmentDestroyLease!(params),
        onExecute: (params) => d.onEnvironmentExecute!(params),
      },
    });
    const log: Array<[string, string]> = [];
    harness.ctx.execution = { log: (stream, chunk) => log.push([stream, chunk]) };
    await d.setup(harness.ctx);
    const base = {
      driverKey: "createos",
      companyId: "company-i",
      environmentId: "env-i",
      config: {
        apiUrl: server.url,
        apiKey: server.apiKey,
        shape: "s-2vcpu-4gb",
        requestsPerMinute: 60_000,
        burst: 1_000,
        heartbeatTimeoutMs: 400,
        reconnectAttempts: 3,
        backoffBaseMs: 10,
        backoffCapMs: 80,
        lifecycleTimeoutMs: 5_000,
        requestTimeoutMs: 5_000,
      },
    };
    const lease = async (): Promise<PluginEnvironmentLease> =>
      harness.acquireLease({ ...base, runId: "run-i" });
    return { plugin, harness, log, base, lease };
  }

  it("a drop and a 503 mid-run: the host log is the fault-free chunk list", async () => {
    const t = await pluginOnServer();
    server.use(script());
    server.reset();
    const lease = await t.lease();
    server.use(
      script({
        connect: (attempt) =>
          attempt === 2 ? { until: 11, exit: false, end: "reset", framing: { split: "bytes" } } : {},
        faults: { "process.connect": [{ status: 503 }] },
      }),
    );
    const result = await t.harness.execute({ ...t.base, lease, command: "/usr/bin/chatty" });
    expect(result).toMatchObject({ exitCode: 3, stdout: JOURNAL.stdout, stderr: JOURNAL.stderr });
    expect(t.log).toEqual(baseline.log);
    const receipt = await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });
    await t.plugin.definition.onShutdown?.();
  });

  it("reuseLease: release pauses (old state read after the POST), resume checks the marker and runs", async () => {
    const t = await pluginOnServer();
    const config = { ...t.base.config, reuseLease: true };
    server.use(script());
    server.reset();
    const lease = await t.harness.acquireLease({ ...t.base, config, runId: "run-r" });
    const leaseParams = {
      ...t.base,
      config,
      providerLeaseId: lease.providerLeaseId!,
      leaseMetadata: hostReusable(lease.metadata!),
    };
    expect(await t.harness.releaseLease(leaseParams)).toEqual({
      providerLeaseId: lease.providerLeaseId,
      state: "stopped",
    });
    const resumed = await t.harness.resumeLease(leaseParams);
    expect(resumed.providerLeaseId).toBe(lease.providerLeaseId);
    const result = await t.harness.execute({ ...t.base, config, lease: resumed, command: "/usr/bin/chatty" });
    expect(result.stdout).toBe(JOURNAL.stdout);
    expect(server.count("sandbox.pause")).toBe(1);
    expect(server.count("sandbox.resume")).toBe(1);
    // The marker is read back with `/bin/cat` through exec, as upstream reads it.
    expect(server.count("files.get")).toBe(0);
    expect(server.count("sandbox.delete")).toBe(0);
    await t.plugin.definition.onShutdown?.();
  });

  it("an invalid sandbox id from the create is refused before it reaches a path", async () => {
    const t = await pluginOnServer();
    server.use(script({ sandboxId: "sb/../../admin" }));
    server.reset();
    const error = await t.lease().then(
      () => undefined,
      (reason: unknown) => reason as PaperclipError,
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_INVALID_RESOURCE_ID")).toBe(true);
    expect(error?.message).toBe("CreateOS returned an invalid resource ID.");
    expect(server.seen.map((r) => r.route)).toEqual(["sandbox.create"]);
    await t.plugin.definition.onShutdown?.();
  });

  it("a lost process-create reply blocks the lease until it is destroyed", async () => {
    const t = await pluginOnServer();
    server.use(script());
    server.reset();
    const lease = await t.lease();
    server.use(script({ faults: { "process.create": ["destroy"] } }));
    const first = await t.harness.execute({ ...t.base, lease, command: "/usr/bin/chatty" }).then(
      () => undefined,
      (error: unknown) => error as PaperclipError,
    );
    expect(PaperclipError.is(first, "ERR_CREATEOS_PROCESS_UNCONFIRMED")).toBe(true);
    expect(first?.message).toBe(
      "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
    );
    expect(server.count("process.create")).toBe(1);
    const second = await t.harness.execute({ ...t.base, lease, command: "/usr/bin/chatty" }).then(
      () => undefined,
      (error: unknown) => error as PaperclipError,
    );
    expect(PaperclipError.is(second, "ERR_CREATEOS_LEASE_BLOCKED")).toBe(true);
    expect(server.count("process.create")).toBe(1);
    const receipt = await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
    expect(receipt?.state).toBe("destroyed");
    expect(server.count("sandbox.delete")).toBe(1);
    await t.plugin.definition.onShutdown?.();
  });

  it.each([
    ["destroyed", false],
    ["gone (404)", true],
  ])(
    "a sandbox %s behind the plugin's back: resume answers expired and deletes nothing",
    async (_name, forget) => {
      const t = await pluginOnServer();
      const config = { ...t.base.config, reuseLease: true };
      server.use(script());
      server.reset();
      const lease = await t.harness.acquireLease({ ...t.base, config, runId: "run-d" });
      const leaseParams = {
        ...t.base,
        config,
        providerLeaseId: lease.providerLeaseId!,
        leaseMetadata: hostReusable(lease.metadata!),
      };
      expect((await t.harness.releaseLease(leaseParams))?.state).toBe("stopped");
      server.deleteBehindPlugin(lease.providerLeaseId!, forget);
      expect(await t.harness.resumeLease(leaseParams)).toEqual({
        providerLeaseId: null,
        metadata: { expired: true },
      });
      expect(server.count("sandbox.delete")).toBe(0);
      await t.plugin.definition.onShutdown?.();
    },
  );

  it("stdin is removed from the sandbox after the command; a kill failure reaches the host's text", async () => {
    const t = await pluginOnServer();
    server.use(script());
    server.reset();
    const lease = await t.lease();
    const id = lease.providerLeaseId!;
    await t.harness.execute({ ...t.base, lease, command: "/usr/bin/chatty", stdin: "a secret prompt" });
    expect(server.filePaths(id).filter((path) => path.startsWith("/tmp/paperclip-stdin-"))).toEqual([]);
    server.use(
      script({ connect: () => ({ answer: { status: 503 } }), faults: { "process.kill": [{ status: 500 }] } }),
    );
    const failed = await t.harness
      .execute({ ...t.base, lease, command: "/usr/bin/chatty", stdin: "again" })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(failed?.message).toBe("CreateOS command cleanup failed; process termination is unconfirmed.");
    expect(server.filePaths(id).filter((path) => path.startsWith("/tmp/paperclip-stdin-"))).toEqual([]);
    await t.plugin.definition.onShutdown?.();
  });

  it("a lease with a guaranteed expiry and a shape outside the catalog are refused", async () => {
    const t = await pluginOnServer();
    server.use(script());
    server.reset();
    const refused = await t.harness
      .acquireLease({ ...t.base, runId: "run-x", requestedExpiresAt: "2026-09-08T12:00:00Z" })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(refused?.message).toBe(
      "CreateOS does not yet support leases with a guaranteed expiration deadline.",
    );
    expect(server.seen).toEqual([]);
    const small = await t.harness
      .acquireLease({ ...t.base, config: { ...t.base.config, shape: "small" }, runId: "run-s" })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(small?.message).toBe("CreateOS request failed (HTTP 400) during sandbox lifecycle.");
    await t.plugin.definition.onShutdown?.();
  });
});
