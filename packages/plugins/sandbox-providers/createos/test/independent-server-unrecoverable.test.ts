/**
 * The plugin, as a downstream user loads it (the built package), against an independent
 * CreateOS-compatible server that shares no code with the package's emulator: every
 * unrecoverable fault must give a coded error, with the process tree killed and nothing left
 * open.
 */
import { PaperclipError } from "@paperclipai/errors";
import { beforeEach, describe, expect, it } from "vitest";
import { type CreateosClient, execute } from "../dist/client.js";
import { RUNNING_COMMAND_DEADLINE_MS } from "./support/command-deadline.js";
import type { IndependentServer } from "./support/independent-server.js";
import {
  type Run,
  SANDBOX,
  script,
  TUNING,
  useIndependentServer,
} from "./support/independent-server-suite.js";

const independent = useIndependentServer();
const { failure, expectKilled } = independent;
let server: IndependentServer;
let client: InstanceType<typeof CreateosClient>;
let baseline: Run;

// Read before each test: the server and the baseline exist only once the shared beforeAll has run.
beforeEach(() => {
  server = independent.server();
  client = independent.client();
  baseline = independent.baseline();
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

  it.each([
    ["with heartbeats", 1],
    ["without a heartbeat", undefined],
  ])(
    "a connect that trickles a frame that never ends (%s) spends the budget",
    async (_name, heartbeatEvery) => {
      // A byte every 50 ms is never silence at a 200 ms stall window; only a complete frame is progress.
      const { error, log } = await failure(
        script({
          connect: () => ({
            until: 4,
            exit: false,
            ...(heartbeatEvery ? { heartbeatEvery } : {}),
            trickleMs: 50,
          }),
        }),
        { stallTimeoutMs: 200 },
      );
      expect(PaperclipError.is(error, "ERR_CREATEOS_OUTPUT_CONNECTION")).toBe(true);
      expect(log).toEqual(baseline.log.slice(0, log.length));
      expect(server.seen.filter((r) => r.route === "process.connect").length).toBe(4);
      expectKilled();
    },
  );

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
