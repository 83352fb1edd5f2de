/**
 * The plugin, as a downstream user loads it (the built package), against an independent
 * CreateOS-compatible server that shares no code with the package's emulator: the fault-free
 * run and the calls it sends, then every recoverable fault, which must give exactly the
 * fault-free output and live log.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type CreateosClient, type ExecuteTuning, execute } from "../dist/client.js";
import type { IndependentServer } from "./support/independent-server.js";
import type { ConnectPlan, ServerScript } from "./support/independent-server-script.js";
import {
  JOURNAL,
  NEWEST,
  type Run,
  SANDBOX,
  script,
  TUNING,
  useIndependentServer,
} from "./support/independent-server-suite.js";

const independent = useIndependentServer();
const { run } = independent;
let server: IndependentServer;
let client: InstanceType<typeof CreateosClient>;
let baseline: Run;

// Read before each test: the server and the baseline exist only once the shared beforeAll has run.
beforeEach(() => {
  server = independent.server();
  client = independent.client();
  baseline = independent.baseline();
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
    // The command's own shell opens the staged stdin and removes it before the command runs.
    const staged = `'${upload.query.get("path")}'`;
    expect(created.args[1]).toBe(
      `exec < ${staged} || exit\n/bin/rm -f -- ${staged} 2>/dev/null\nexec -- '/usr/bin/chatty' 'a b' 'ü'`,
    );
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
