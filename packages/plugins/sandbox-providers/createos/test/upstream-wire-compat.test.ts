/**
 * What upstream's own tests of its plugin require on the wire, checked against the built
 * package and the independent server: every request refuses redirects the way fetch spells
 * it (`redirect: "error"`), the output is complete without a `wait` route (the exit frame is
 * then the evidence), a fetch that refuses a route is not retried, and the lease marker is
 * uploaded as text and read back with `/bin/cat`.
 */
import { PaperclipError } from "@paperclipai/errors";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CreateosClient, type ExecuteResult, execute } from "../dist/client.js";
import { createPlugin } from "../dist/index.js";
import { type IndependentServer, startIndependentServer } from "./support/independent-server.js";
import type { ServerScript } from "./support/independent-server-script.js";
import { hostReusable } from "./support/plugin-harness.js";

const TUNING = { stallTimeoutMs: 400, waitProbeMs: 50, cleanupTimeoutMs: 2_000, reconnectAttempts: 3 };
const FRAMES = ["one\n", "two ü\n", "three\n"].map((text) => ({
  stream: "stdout" as const,
  bytes: Buffer.from(text),
}));
const STDOUT = "one\ntwo ü\nthree\n";
const NO_WAIT = { status: 404, body: '{"status":"fail","data":"not found"}' };

let server: IndependentServer;

interface RecordedCall {
  readonly url: string;
  readonly init: RequestInit;
}

/** The real fetch, with every call recorded and `/wait` answered by `onWait` when it is set. */
function recordingFetch(onWait?: (attempt: number) => void) {
  const calls: RecordedCall[] = [];
  let waits = 0;
  const fetchImpl: typeof fetch = async (input, init = {}) => {
    const url = String(input);
    calls.push({ url, init });
    if (onWait !== undefined && new URL(url).pathname.endsWith("/wait")) onWait(++waits);
    return fetch(input, init);
  };
  return { calls, fetchImpl, waits: () => waits };
}

function clientWith(fetchImpl: typeof fetch = fetch) {
  return new CreateosClient({
    apiUrl: server.url,
    apiKey: server.apiKey,
    fetch: fetchImpl,
    rateLimit: { burst: 1_000, refillPerMinute: 600_000 },
    backoff: { baseMs: 10, capMs: 80, maxRetryAfterMs: 3_000 },
    maxAttempts: 4,
    requestTimeoutMs: 5_000,
  });
}

async function run(script: Partial<ServerScript>, fetchImpl?: typeof fetch): Promise<ExecuteResult> {
  server.use({ frames: FRAMES, exit: { exitCode: 3, signal: null }, ...script });
  server.reset();
  return execute(clientWith(fetchImpl), { sandboxId: "sb-upstream", command: "/usr/bin/chatty" }, TUNING);
}

beforeAll(async () => {
  server = await startIndependentServer(11);
});

afterEach(() => {
  expect(server.strayRequests).toEqual([]);
});

afterAll(async () => {
  await server.close();
});

describe("without a wait route, as upstream's API stub offers none", () => {
  it.each([404, 405, 501])("wait answering %i: the exit frame completes the run, once", async (status) => {
    const result = await run({ wait: () => ({ status }) });
    expect(result).toMatchObject({ exitCode: 3, stdout: STDOUT, timedOut: false });
    expect(server.count("process.wait")).toBe(1);
    expect(server.count("process.connect")).toBe(1);
  });

  it("a stream cut before its exit frame is replayed up to the exit frame", async () => {
    const result = await run({
      wait: () => NO_WAIT,
      connect: (attempt) => (attempt === 1 ? { until: 2, exit: false, end: "reset" } : {}),
    });
    expect(result).toMatchObject({ exitCode: 3, stdout: STDOUT });
    expect(server.count("process.connect")).toBe(2);
  });

  it("no exit frame ever: no exit status is made up, the tree is killed", async () => {
    const error = await run({ wait: () => NO_WAIT, connect: () => ({ exit: false }) }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(PaperclipError.is(error, "ERR_CREATEOS_STREAM_ENDED")).toBe(true);
    expect(server.kills()).toHaveLength(1);
  });

  it("a fetch that refuses the wait route (not a network failure) is not retried", async () => {
    const refusing = recordingFetch(() => {
      throw new Error("Unhandled fixture request GET /wait");
    });
    const result = await run({}, refusing.fetchImpl);
    expect(result).toMatchObject({ exitCode: 3, stdout: STDOUT });
    expect(refusing.waits()).toBe(1);
    expect(server.count("process.wait")).toBe(0);
  });

  it("a network failure (TypeError) on wait is still retried, and wait's evidence kept", async () => {
    const flaky = recordingFetch((attempt) => {
      if (attempt === 1) throw new TypeError("fetch failed");
    });
    const result = await run({}, flaky.fetchImpl);
    expect(result).toMatchObject({ exitCode: 3, stdout: STDOUT });
    expect(server.count("process.wait")).toBe(1);
    expect(flaky.waits()).toBe(2);
  });
});

describe("requests as upstream's stub checks them", () => {
  it("every fetch of a lease's life refuses redirects with redirect: error and carries the key", async () => {
    const recorder = recordingFetch();
    const hooks = createPlugin({ env: {}, fetch: recorder.fetchImpl }).definition;
    server.use({ frames: FRAMES, exit: { exitCode: 0, signal: null } });
    server.reset();
    const base = {
      driverKey: "createos",
      companyId: "company-u",
      environmentId: "env-u",
      config: {
        apiUrl: server.url,
        apiKey: server.apiKey,
        shape: "s-2vcpu-4gb",
        reuseLease: true,
        requestsPerMinute: 60_000,
        burst: 1_000,
        backoffBaseMs: 10,
        backoffCapMs: 80,
      },
    };
    const lease = await hooks.onEnvironmentAcquireLease!({ ...base, runId: "run-u" });
    const marker = recorder.calls.find((call) => call.url.includes("paperclip-createos-lease"));
    // Upstream's stub keeps the marker only from a string body, and prints it for `/bin/cat`.
    expect(typeof marker?.init.body).toBe("string");
    expect(marker?.init.body).toBe((lease.metadata as { marker: string }).marker);
    const leaseParams = {
      ...base,
      providerLeaseId: lease.providerLeaseId!,
      leaseMetadata: hostReusable(lease.metadata!),
    };
    await hooks.onEnvironmentReleaseLease!(leaseParams);
    expect(await hooks.onEnvironmentResumeLease!(leaseParams)).toMatchObject({
      providerLeaseId: lease.providerLeaseId,
    });
    expect(server.count("files.get")).toBe(0);
    await hooks.onEnvironmentExecute!({ ...base, lease, command: "/usr/bin/chatty" });
    await hooks.onEnvironmentDestroyLease!(leaseParams);
    expect(recorder.calls.length).toBeGreaterThan(10);
    for (const call of recorder.calls) {
      expect(call.init.redirect).toBe("error");
      expect(call.init.headers).toMatchObject({ "X-Api-Key": server.apiKey });
    }
  });
});
