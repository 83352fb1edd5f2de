import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { withWork } from "./helpers/codex-durable.js";
import { codexOnHandMadeServer } from "./helpers/codex-on-hand-made-server.js";
import { PeerConnection } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET } from "./helpers/hand-made-runner.js";
import type { Runner } from "./helpers/hand-made-side-by-side.js";
import {
  ackEnd,
  providerStarts,
  RELAUNCH_TICKET,
  STREAM_ENDS,
  sentResults,
  stateLifecycle,
} from "./helpers/stream-end-relaunch.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Side by side: our runner and upstream's Rust runner (2026.916.1) against the same hand-made
// server, on the fake app-server. Each sends `runner.shutdown` or `runner.suspend`'s result and is
// SIGKILLed before the server acknowledges it (upstream's runner cannot be stopped at a persist
// phase: `stream-end-relaunch.test.ts` does that to ours), then relaunched with a fresh ticket over
// the same state directory. Both keep the lifecycle the end left and start no provider. Redelivered
// in the welcome, both send the journalled result again, byte for byte, and leave on its ack. Not
// redelivered (the server holds the result), upstream's sends nothing and exits 0 at once; ours
// sends it again and leaves on its ack (docs/compatibility.md).

const CASES = (["upstream", "ours"] as const).flatMap((which: Runner) =>
  STREAM_ENDS.flatMap((end) => [true, false].map((redelivered) => ({ which, ...end, redelivered }))),
);

describe("the end's result unacknowledged, the runner killed and relaunched", { timeout: 60_000 }, () => {
  it.each(CASES)(
    "$which runner, $type (redelivered: $redelivered): $lifecycle kept, no provider",
    async ({ which, type, lifecycle, redelivered }) => {
      await withWork(async (work) => {
        const on = await codexOnHandMadeServer(work);
        const { codexHome, server, stateDir } = on;
        const launch = (ticket: string) =>
          on.launch({
            ticket,
            reconnectGraceMs: 10_000,
            ...(which === "upstream" ? { command: [upstreamRunner()] as const } : {}),
          });
        const first = launch(HAND_MADE_TICKET);
        const { conn, pid } = await on.openSession();
        const end = { commandId: "end", controllerSeq: 3, type };
        conn.sendCommand(end);
        await conn.resultOf("end");
        const [result] = sentResults(conn, "end");
        first.child.kill("SIGKILL");
        await first.closed;
        expect(await stateLifecycle(stateDir)).toBe(lifecycle);

        const relaunched = launch(RELAUNCH_TICKET);
        const next = await server.nextConnection();
        await next.handshake(RELAUNCH_TICKET);
        next.welcome({ pendingCommands: redelivered ? [PeerConnection.command(end)] : [] });
        if (which === "upstream" && !redelivered) {
          expect(await relaunched.closed).toBe(0);
          expect(sentResults(next, "end")).toEqual([]);
        } else {
          await next.resultOf("end");
          expect(sentResults(next, "end")).toEqual([result]);
          ackEnd(next, end);
          expect(await relaunched.closed).toBe(0);
          expect(sentResults(next, "end")).toEqual([result]);
        }
        expect(await stateLifecycle(stateDir)).toBe(lifecycle);
        expect(await providerStarts(codexHome)).toEqual([pid]);
        expect(isAlive(pid)).toBe(false);
      });
    },
  );
});
