import {
  type CreateosEmulator,
  type CreateosEmulatorOptions,
  startCreateosEmulator,
} from "@paperclipai/createos-emulator";
import { afterAll, afterEach, beforeAll } from "vitest";
import { CreateosClient, type CreateosClientOptions } from "../../src/client/createos-client.js";
import type { ExecuteTuning } from "../../src/execute/execute.js";
import type { OutputStream } from "../../src/execute/output-frame.js";
import { createSandbox, waitForStatus } from "../../src/lease/sandbox-api.js";

/** Fast settings for tests: heartbeats every 100 ms, no rate limit, short backoff. */
export async function startTestEmulator(options: CreateosEmulatorOptions = {}): Promise<CreateosEmulator> {
  return startCreateosEmulator({ heartbeatMs: 100, rateLimitPerMinute: null, transitionMs: 20, ...options });
}

export const FAST_CLIENT: Partial<CreateosClientOptions> = {
  rateLimit: { burst: 1_000, refillPerMinute: 600_000 },
  backoff: { baseMs: 20, capMs: 200, maxRetryAfterMs: 1_500 },
};

export const FAST_TUNING: Partial<ExecuteTuning> = {
  stallTimeoutMs: 600,
  waitProbeMs: 200,
  cleanupTimeoutMs: 3_000,
  reconnectAttempts: 4,
};

export function testClient(
  emulator: CreateosEmulator,
  extra: Partial<CreateosClientOptions> = {},
): CreateosClient {
  return new CreateosClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, ...FAST_CLIENT, ...extra });
}

/** A running sandbox, created through the plugin's own lifecycle calls. */
export async function createRunningSandbox(client: CreateosClient): Promise<string> {
  const signal = new AbortController().signal;
  const id = await createSandbox(
    client,
    { shape: "s-1vcpu-1gb", rootfs: undefined, region: undefined },
    signal,
  );
  await waitForStatus(client, id, "running", Date.now() + 30_000, signal);
  return id;
}

/** The emulator, a client of it and the running sandbox `useRunningSandbox` gives a test file. */
export interface RunningSandbox {
  readonly emulator: CreateosEmulator;
  readonly client: CreateosClient;
  readonly id: string;
}

/**
 * One emulator with one running sandbox for the whole test file: started in `beforeAll`, closed
 * in `afterAll` (also when a test or the sandbox's creation fails). Call it at the top of the
 * file; read the fields only inside tests and hooks, once `beforeAll` has run.
 */
export function useRunningSandbox(options: CreateosEmulatorOptions = {}): RunningSandbox {
  let emulator: CreateosEmulator | undefined;
  let client: CreateosClient | undefined;
  let id: string | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator(options);
    client = testClient(emulator);
    id = await createRunningSandbox(client);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return {
    get emulator() {
      return emulator!;
    },
    get client() {
      return client!;
    },
    get id() {
      return id!;
    },
  };
}

/** Records the live log per stream, in call order. */
export function liveLog(): {
  readonly onLog: (stream: OutputStream, text: string) => void;
  readonly calls: Array<[OutputStream, string]>;
  text(stream: OutputStream): string;
} {
  const calls: Array<[OutputStream, string]> = [];
  return {
    calls,
    onLog: (stream, text) => {
      calls.push([stream, text]);
    },
    text: (stream) =>
      calls
        .filter(([s]) => s === stream)
        .map(([, t]) => t)
        .join(""),
  };
}

/** The emulator `useTestEmulator` gives a test file, and the status of one of its sandboxes. */
export interface TestEmulator {
  readonly emulator: CreateosEmulator;
  sandboxStatus(id: string | null): string | undefined;
}

/**
 * One emulator for the whole test file: started in `beforeAll`, its faults cleared after each
 * test, closed in `afterAll`. Call it at the top of the file; read `emulator` only inside tests
 * and hooks, once `beforeAll` has run.
 */
export function useTestEmulator(options: CreateosEmulatorOptions = {}): TestEmulator {
  let emulator: CreateosEmulator | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator(options);
  });
  afterEach(() => {
    emulator?.faults.clear();
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return {
    get emulator() {
      return emulator!;
    },
    sandboxStatus: (id) => emulator!.sandboxes().find((s) => s.id === id)?.status,
  };
}
