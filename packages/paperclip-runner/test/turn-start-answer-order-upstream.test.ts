import { describe, expect, it } from "vitest";
import { withWork } from "./helpers/codex-durable.js";
import { codexOnHandMadeServer } from "./helpers/codex-on-hand-made-server.js";
import type { Runner } from "./helpers/hand-made-side-by-side.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";
import { goneWithin } from "./local-controller.js";

// Side by side: our runner and upstream's Rust runner (2026.916.1) against the same hand-made
// server, on the fake app-server: the first turn.start after a session.open, and what each sends
// for it on the wire, in order, through the provider's `turn.started`. Upstream's answers the
// command (`{status:"accepted", providerTurnId}`) before its `turn.accepted`, then commits the
// session.open's held startup facts and the turn's start. Until 2026-12-06 ours answered after
// those events, so a runner of ours killed in between left turn.start pending in the server's
// journal, which the server's native cleanup maintenance refuses (`maintenance-settle-upstream.test.ts`).

/** What `which` runner sent for a turn.start after its session.open, through `turn.started`. */
async function turnStartWire(which: Runner): Promise<string[]> {
  return await withWork(async (work) => {
    const on = await codexOnHandMadeServer(work);
    const run = on.launch(which === "upstream" ? { command: [upstreamRunner()] } : {});
    const { conn, pid } = await on.openSession();
    // The server acknowledges each event as it arrives, as the real server does once it committed it.
    let next = 1;
    const ackThrough = async (eventType: string) => {
      for (;;) {
        const event = await conn.eventThrough(next);
        if (event === null) throw new Error(`${which} runner closed before ${eventType}`);
        conn.ack(next);
        next += 1;
        if (event.eventType === eventType) return;
      }
    };
    // The session.open's own events are in (whether sent before or after its answer).
    await ackThrough("session.goal.snapshot");
    const from = conn.received.length;
    conn.sendCommand({ commandId: "turn", controllerSeq: 3, type: "turn.start", payload: { text: "hang" } });
    await ackThrough("turn.started");
    await conn.resultOf("turn");
    const wire = conn.received.slice(from).map(label);
    run.child.kill("SIGKILL");
    await run.closed;
    // The fake app-server exits with its runner.
    await goneWithin(pid);
    return wire.filter((entry) => entry !== null);
  });
}

/** A message's label: a command's result, an event's type (a diagnostic's code with it), null for the rest. */
function label(message: Record<string, unknown>): string | null {
  const payload = (message.payload ?? {}) as Record<string, unknown>;
  if (message.kind === "command_result") return `result ${String(payload.commandId)}`;
  if (message.kind !== "event") return null;
  const code = (payload.payload as { code?: unknown } | undefined)?.code;
  return payload.eventType === "harness.diagnostic"
    ? `diagnostic:${String(code)}`
    : String(payload.eventType);
}

describe("a turn.start's answer and its events on the wire, against upstream's runner", {
  timeout: 60_000,
}, () => {
  it("answers turn.start before turn.accepted, then the held startup facts, then turn.started", async () => {
    const upstream = await turnStartWire("upstream");
    const ours = await turnStartWire("ours");
    expect(upstream.slice(0, 2)).toEqual(["result turn", "turn.accepted"]);
    expect(ours).toEqual(upstream);
  });
});
