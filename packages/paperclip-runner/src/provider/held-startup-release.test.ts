import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EngineEvent } from "../durable/engine/durable-engine.js";
import type { ServerCommand } from "../durable/state/command-journal.js";
import { ExecutorContext } from "./executor-context.js";
import { HeldStartupRelease } from "./held-startup-release.js";
import { providerEvent } from "./provider-event.js";
import { DRAIN_RELEASE_DELAY_MS } from "./startup-release-policy.js";

// The due commit of held facts after a later drain's answer, on fake timers: when it is made, and
// when a command (or the runner's end) takes it over. The facts are neither carried nor goal-bearing,
// so committing them writes no state file: what is committed is what reaches `onEvent`.
const intent = providerEvent("harness.diagnostic", 0, {
  code: "provider_startup_ownership",
  phase: "intent",
});
const identity = { runnerInstanceId: "r", runId: "run", normalizedSessionId: "s", turnId: "t", itemId: "i" };

let seq = 0;
const command = (type: string): ServerCommand => {
  seq += 1;
  return {
    schema: "paperclip.prp.command.v1",
    commandId: `${type}-${seq}`,
    controllerSeq: seq,
    type,
    issuedAt: "2026-01-01T00:00:00.000Z",
    payload: {},
  };
};

function setup(onEvent: (event: EngineEvent) => Promise<void> = async () => undefined) {
  const committed: string[] = [];
  const failures: unknown[] = [];
  const ctx = new ExecutorContext(identity, "/nonexistent", null, 0, async (event) => {
    await onEvent(event);
    if (event.kind === "event") committed.push(String(event.event.payload.phase));
  });
  ctx.deferredStartup = { commandId: "open", events: [intent], resume: false };
  const release = new HeldStartupRelease(ctx, (error) => failures.push(error));
  /** A command as durable mode hands it over: arrival, then `before`, its effect, its answer. */
  const handle = async (next: ServerCommand) => {
    release.arrived(next);
    await ctx.run(() => release.before(next));
    await ctx.run(() => release.afterEffect(next));
    release.afterAnswer(next);
  };
  /** Open's first drain keeps the facts; the later one's answer makes their commit due. */
  const dueAfterLaterDrain = async () => {
    await handle(command("runner.drain"));
    await handle(command("runner.drain"));
  };
  return { ctx, release, committed, failures, handle, dueAfterLaterDrain };
}

describe("HeldStartupRelease's due commit", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("commits the held facts DRAIN_RELEASE_DELAY_MS after the later drain's answer, not before", async () => {
    const { ctx, committed, dueAfterLaterDrain } = setup();
    await dueAfterLaterDrain();
    await vi.advanceTimersByTimeAsync(DRAIN_RELEASE_DELAY_MS - 1);
    expect(committed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(committed).toEqual(["intent"]);
    expect(ctx.deferredStartup).toBeNull();
  });

  it("leaves the commit to a command that arrives during the delay, which makes it before itself", async () => {
    const { ctx, release, committed, dueAfterLaterDrain } = setup();
    await dueAfterLaterDrain();
    const snapshot = command("session.snapshot");
    release.arrived(snapshot);
    await vi.advanceTimersByTimeAsync(DRAIN_RELEASE_DELAY_MS * 4);
    expect(committed).toEqual([]);
    await ctx.run(() => release.before(snapshot));
    expect(committed).toEqual(["intent"]);
  });

  it("starts no timer when a command arrived behind the drain before its answer", async () => {
    const { ctx, release, committed, handle } = setup();
    await handle(command("runner.drain"));
    const drain = command("runner.drain");
    release.arrived(drain);
    await ctx.run(() => release.before(drain));
    release.arrived(command("runner.suspend"));
    release.afterAnswer(drain);
    await vi.advanceTimersByTimeAsync(DRAIN_RELEASE_DELAY_MS * 4);
    expect(committed).toEqual([]);
  });

  it("keeps them through a run.cancel with no turn as a first drain: the next drain's commit is due", async () => {
    const { committed, handle } = setup();
    await handle(command("run.cancel"));
    expect(committed).toEqual([]);
    await handle(command("runner.drain"));
    expect(committed).toEqual([]);
    await vi.advanceTimersByTimeAsync(DRAIN_RELEASE_DELAY_MS);
    expect(committed).toEqual(["intent"]);
  });

  it("commits a resume's facts right after a run.cancel, as before (not compared with upstream)", async () => {
    const { ctx, committed, handle } = setup();
    ctx.deferredStartup = { commandId: "", events: [intent], resume: true };
    await handle(command("run.cancel"));
    expect(committed).toEqual(["intent"]);
  });

  it("makes no commit once the runner stops (a shutdown, a kill)", async () => {
    const { release, committed, dueAfterLaterDrain } = setup();
    await dueAfterLaterDrain();
    release.stop();
    await vi.advanceTimersByTimeAsync(DRAIN_RELEASE_DELAY_MS * 4);
    expect(committed).toEqual([]);
  });

  it("does nothing when it fires with nothing held any more", async () => {
    const { ctx, committed, failures, dueAfterLaterDrain } = setup();
    await dueAfterLaterDrain();
    ctx.deferredStartup = null;
    await vi.advanceTimersByTimeAsync(DRAIN_RELEASE_DELAY_MS);
    expect(committed).toEqual([]);
    expect(failures).toEqual([]);
  });

  it("hands a failed commit to the runner's failure, not to nobody", async () => {
    const broken = new Error("outbox write failed");
    const { failures, dueAfterLaterDrain } = setup(async () => {
      throw broken;
    });
    await dueAfterLaterDrain();
    await vi.advanceTimersByTimeAsync(DRAIN_RELEASE_DELAY_MS);
    expect(failures).toEqual([broken]);
  });
});
