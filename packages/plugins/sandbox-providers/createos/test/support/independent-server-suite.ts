/**
 * What the suites against the independent server share: the journal its scripted process
 * prints, the tuning `execute` runs with, one run of it (to an output or to an error), and the
 * server's lifecycle with the checks after every test that nothing was left open or retried
 * early. Each suite file starts its own server, so the files run apart.
 */
import { fileURLToPath } from "node:url";
import { caught } from "@paperclipai/errors/testing";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { CreateosClient, type ExecuteResult, type ExecuteTuning, execute } from "../../dist/client.js";
import { type IndependentServer, startIndependentServer } from "./independent-server.js";
import type { JournalFrame, ServerScript } from "./independent-server-script.js";
import { trackTimersCreatedIn } from "./timer-tracker.js";

export const SANDBOX = "sb-independent";
export const TUNING: Partial<ExecuteTuning> = {
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

export const JOURNAL = buildJournal();
export const NEWEST = JOURNAL.frames.length;
const EXIT = { exitCode: 3, signal: null };

export interface Run {
  result: ExecuteResult;
  log: Array<[string, string]>;
  blocked: string[];
}

export function script(extra: Partial<ServerScript> = {}): ServerScript {
  return { frames: JOURNAL.frames, exit: EXIT, ...extra };
}

/**
 * Registers the server's lifecycle in the calling test file: one server and client for the
 * file, the fault-free `baseline` run the faults are compared against, and the checks after
 * each test. `server`, `client` and `baseline` exist once the file's `beforeAll` has run.
 */
export function useIndependentServer() {
  let server: IndependentServer;
  let client: InstanceType<typeof CreateosClient>;
  let baseline: Run;

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
    ["../../dist/", "../../src/"].map((dir) => fileURLToPath(new URL(dir, import.meta.url))),
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

  return {
    server: (): IndependentServer => server,
    client: (): InstanceType<typeof CreateosClient> => client,
    baseline: (): Run => baseline,
    run,
    failure,
    expectKilled,
  };
}
