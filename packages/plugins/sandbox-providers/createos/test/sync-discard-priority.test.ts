import { describe, expect, it } from "vitest";
import { readSandboxStatus } from "../src/lease/sandbox-api.js";
import { PluginRuntime } from "../src/plugin/plugin-runtime.js";
import { discardStaged } from "../src/sync/remote-leftovers.js";
import { testClient, useRunningSandbox } from "./support/emulator-fixture.js";

// Removing what a failed sync staged is a cleanup: it must not wait behind every call queued
// for the rate pacer (kills and deletes do not either), or its own deadline runs out first.

const sandbox = useRunningSandbox();

describe("discarding what a sync staged", () => {
  it("goes ahead of calls waiting for the rate pacer", async () => {
    // One request a second, one in hand: the first read takes it, the rest queue.
    const client = testClient(sandbox.emulator, { rateLimit: { burst: 1, refillPerMinute: 60 } });
    const signal = new AbortController().signal;
    const reads = [1, 2].map(() => readSandboxStatus(client, sandbox.id, signal));
    // Queued after both reads (they entered the pacer synchronously).
    const discard = discardStaged({ runtime: new PluginRuntime(), client, sandboxId: sandbox.id }, [
      "/tmp/.paperclip-sync-never-staged",
    ]);
    await Promise.all([...reads, discard]);

    const routes = sandbox.emulator
      .requests()
      .filter((request) => request.path.includes(sandbox.id) && request.route !== "sandbox.create")
      .map((request) => request.route)
      .slice(-3);
    expect(routes).toEqual(["sandbox.get", "sandbox.exec", "sandbox.get"]);
  });
});
