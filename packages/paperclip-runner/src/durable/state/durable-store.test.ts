import { AsyncLocalStorage, createHook } from "node:async_hooks";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { LOCK_FILE_NAME } from "../../state/state-lock.js";
import type { DurableIdentity } from "../durable-identity.js";
import { scriptedStateWritten } from "../engine/scripted-engine-files.js";
import type { DurableState } from "./durable-state.js";
import { DURABLE_STATE_FILE, openDurableStore } from "./durable-store.js";

const identity: DurableIdentity = {
  runnerInstanceId: "runner-1",
  environmentLeaseId: "lease-1",
  runId: "run-1",
  normalizedSessionId: "session-1",
  turnId: "turn-1",
  itemId: "item-1",
};
const runner = { version: "0.3.0", digest: `sha256:${"0".repeat(64)}` };

/**
 * Counts the file-system requests `body` hands to libuv's thread pool (callback and promise APIs
 * alike). Only requests made in `body`'s own asynchronous context count: whatever else the test
 * worker does meanwhile is not ours to count.
 */
async function threadPoolRequests<T>(body: () => Promise<T>): Promise<{ value: T; requests: number }> {
  const context = new AsyncLocalStorage<true>();
  let requests = 0;
  const hook = createHook({
    init(_id, type) {
      if ((type === "FSREQCALLBACK" || type === "FSREQPROMISE") && context.getStore()) requests += 1;
    },
  });
  hook.enable();
  try {
    const value = await context.run(true, body);
    return { value, requests };
  } finally {
    hook.disable();
  }
}

describe("openDurableStore", () => {
  // A new session's runner opens a fresh state directory before its handshake, on the way to the
  // server's first thread/start answer: every thread-pool round trip there is latency. What must
  // wait for the disk waits there: the lock file's fsync, the state file's and its directory's
  // fsyncs. (It made 13 requests when every call went through fs/promises: mkdir, chmod, lstat,
  // open, fstat, close, the lock's open, write, close, link and unlink, the absent state file's open.)
  it("opens a fresh state directory with at most three thread-pool requests", async () => {
    const stateDir = join(tempDirForTest("durable-store-"), "runner");
    const { value: store, requests } = await threadPoolRequests(() =>
      openDurableStore(stateDir, identity, runner),
    );
    try {
      expect(requests).toBeLessThanOrEqual(3);
      expect(store.recovered).toBeNull();
      expect((await stat(stateDir)).mode & 0o777).toBe(0o700);
      expect((await stat(join(stateDir, DURABLE_STATE_FILE))).mode & 0o777).toBe(0o600);
      expect((await readdir(stateDir)).sort()).toEqual([DURABLE_STATE_FILE, LOCK_FILE_NAME].sort());
    } finally {
      await store.close();
    }
  });

  // Asked by every durable runner between opening its store and its auth_hello.
  it("tells whether a scripted engine's state was written without a thread-pool request", async () => {
    const stateDir = join(tempDirForTest("durable-store-"), "runner");
    const { value: store } = await threadPoolRequests(() => openDurableStore(stateDir, identity, runner));
    try {
      const { value: written, requests } = await threadPoolRequests(() =>
        scriptedStateWritten(join(stateDir, "engine")),
      );
      expect(written).toBe(false);
      expect(requests).toBe(0);
    } finally {
      await store.close();
    }
  });

  // The lock is released on close: whatever the closed run still had under way must not land in
  // a directory another runner may hold by then.
  it("waits for a save under way before it releases the lock; a save after close writes nothing", async () => {
    const stateDir = join(tempDirForTest("durable-store-"), "runner");
    const store = await openDurableStore(stateDir, identity, runner);
    const file = join(stateDir, DURABLE_STATE_FILE);
    const order: string[] = [];
    const changed: DurableState = { ...store.initial, restarts: 7 };
    const saved = store.save(changed).then(() => order.push("saved"));
    await store.close().then(() => order.push("closed"));
    await saved;
    expect(order).toEqual(["saved", "closed"]);
    const atClose = await readFile(file, "utf8");
    expect(JSON.parse(atClose)).toMatchObject({ restarts: 7 });
    const late = store.save({ ...store.initial, restarts: 8 }).then(() => "settled");
    const marker = new Promise<string>((resolve) => setImmediate(() => resolve("not settled")));
    expect(await Promise.race([late, marker])).toBe("not settled");
    expect(await readFile(file, "utf8")).toBe(atClose);
    expect((await readdir(stateDir)).sort()).toEqual([DURABLE_STATE_FILE]);
  });
});
