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

  it("leaves out of the held leases one a release or destroy is ending, until the last ends", () => {
    const registry = new LeaseRegistry();
    registry.hold({ sandboxId: "a", client: {} as CreateosClient, lifecycleTimeoutMs: 1_000 });
    const release = registry.ending("a");
    const destroy = registry.ending("a");
    expect(registry.held).toEqual([]);
    release();
    release();
    expect(registry.held).toEqual([]);
    destroy();
    expect(registry.held.map((lease) => lease.sandboxId)).toEqual(["a"]);
  });
});
