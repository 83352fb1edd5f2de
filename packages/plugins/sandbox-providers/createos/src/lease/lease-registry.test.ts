import { describe, expect, it } from "vitest";
import type { CreateosClient } from "../client/createos-client.js";
import { LeaseRegistry } from "./lease-registry.js";

describe("LeaseRegistry", () => {
  it("blocks and forgets leases", () => {
    const registry = new LeaseRegistry();
    registry.assertUsable("a");
    registry.block("a", "process creation");
    expect(registry.isBlocked("a")).toBe(true);
    expect(() => registry.assertUsable("a")).toThrow(
      expect.objectContaining({
        code: "ERR_CREATEOS_LEASE_BLOCKED",
        details: { sandboxId: "a", reason: "process creation" },
      }),
    );
    registry.forget("a");
    expect(registry.blockedCount).toBe(0);
  });

  it("stop aborts active work and waits for its cleanup", async () => {
    const registry = new LeaseRegistry();
    const events: string[] = [];
    const work = registry.track(
      "a",
      new AbortController().signal,
      (signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            setTimeout(() => {
              events.push("cleaned up");
              reject(signal.reason);
            }, 20);
          });
        }),
    );
    expect(registry.activeCount("a")).toBe(1);
    await registry.stop("a", new Error("release"));
    events.push("stopped");
    expect(events).toEqual(["cleaned up", "stopped"]);
    await expect(work).rejects.toThrow("release");
    expect(registry.activeCount()).toBe(0);
  });

  it("a parent abort reaches tracked work", async () => {
    const registry = new LeaseRegistry();
    const parent = new AbortController();
    parent.abort(new Error("shutdown"));
    await expect(
      registry.track("a", parent.signal, async (signal) => signal.throwIfAborted()),
    ).rejects.toThrow("shutdown");
  });

  it("holds a lease until it is given back paused or forgotten", () => {
    const registry = new LeaseRegistry();
    const client = {} as CreateosClient;
    registry.hold({ sandboxId: "a", client, lifecycleTimeoutMs: 1_000 });
    registry.hold({ sandboxId: "b", client, lifecycleTimeoutMs: 1_000 });
    registry.hold({ sandboxId: "c", client, lifecycleTimeoutMs: 1_000 });
    registry.letGo("a");
    registry.forget("b");
    expect(registry.held.map((lease) => lease.sandboxId)).toEqual(["c"]);
  });

  it("gives a lease back once the last release or destroy ending it is over, if still held", async () => {
    const registry = new LeaseRegistry();
    const client = {} as CreateosClient;
    registry.hold({ sandboxId: "a", client, lifecycleTimeoutMs: 1_000 });
    registry.hold({ sandboxId: "b", client, lifecycleTimeoutMs: 1_000 });
    const release = registry.ending("a");
    const destroy = registry.ending("a");
    const destroyB = registry.ending("b");
    let settled = false;
    const a = registry.heldOnceEnded("a").then((lease) => {
      settled = true;
      return lease;
    });
    const b = registry.heldOnceEnded("b");
    release();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    // The destroy failed: the lease is still held, for shutdown's last attempt.
    destroy();
    expect((await a)?.sandboxId).toBe("a");
    // This one succeeded: nothing left to end.
    registry.forget("b");
    destroyB();
    expect(await b).toBeUndefined();
    expect(await registry.heldOnceEnded("c")).toBeUndefined();
  });

  it("makes a resume wait for what is ending its sandbox, or for its own deadline", async () => {
    const registry = new LeaseRegistry();
    const open = new AbortController().signal;
    await registry.untilEnded("a", open);
    const pausing = registry.ending("a");
    let waited = false;
    const waiting = registry.untilEnded("a", open).then(() => {
      waited = true;
    });
    const cut = new AbortController();
    const cutWait = registry.untilEnded("a", cut.signal);
    cut.abort(new Error("host deadline"));
    await expect(cutWait).rejects.toThrow("host deadline");
    expect(waited).toBe(false);
    pausing();
    await waiting;
    expect(waited).toBe(true);
  });
});
