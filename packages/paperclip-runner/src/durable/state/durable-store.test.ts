import { createHook } from "node:async_hooks";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { LOCK_FILE_NAME } from "../../state/state-lock.js";
import type { DurableIdentity } from "../durable-identity.js";
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

/** Counts the file-system requests `body` hands to libuv's thread pool (callback and promise APIs alike). */
async function threadPoolRequests<T>(body: () => Promise<T>): Promise<{ value: T; requests: number }> {
  let requests = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "FSREQCALLBACK" || type === "FSREQPROMISE") requests += 1;
    },
  });
  hook.enable();
  try {
    const value = await body();
    return { value, requests };
  } finally {
    hook.disable();
  }
}

describe("openDurableStore", () => {
  // A new session's runner opens a fresh state directory before its handshake, on the way to the
  // server's first thread/start answer: every thread-pool round trip there is latency. What must
  // wait for the disk waits there: the lock file's fsync, the absent state file's open, the state
  // file's and its directory's fsyncs. (It made 13 requests when every call went through
  // fs/promises: mkdir, chmod, lstat, open, fstat, close, and the lock's open, write, close, link
  // and unlink.)
  it("opens a fresh state directory with at most four thread-pool requests", async () => {
    const stateDir = join(tempDirForTest("durable-store-"), "runner");
    const { value: store, requests } = await threadPoolRequests(() =>
      openDurableStore(stateDir, identity, runner),
    );
    try {
      expect(requests).toBeLessThanOrEqual(4);
      expect(store.recovered).toBeNull();
      expect((await stat(stateDir)).mode & 0o777).toBe(0o700);
      expect((await stat(join(stateDir, DURABLE_STATE_FILE))).mode & 0o777).toBe(0o600);
      expect((await readdir(stateDir)).sort()).toEqual([DURABLE_STATE_FILE, LOCK_FILE_NAME].sort());
    } finally {
      await store.close();
    }
  });
});
