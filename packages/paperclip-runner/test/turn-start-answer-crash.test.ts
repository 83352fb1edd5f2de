import { describe, expect, it } from "vitest";
import { withWork } from "./helpers/codex-durable.js";
import { PeerConnection } from "./helpers/hand-made-prp-server.js";
import { journalledDone, killedAtJournalWrite } from "./helpers/killed-at-journal-write.js";
import { providerStarts, relaunchedThroughHandshake } from "./helpers/stream-end-relaunch.js";
import { goneWithin } from "./local-controller.js";

// A turn.start answered before its `turn.accepted` goes out (upstream's order,
// `turn-start-answer-order-upstream.test.ts`), with both durable first: the runner SIGKILLed once
// the turn.start's result is journalled, nothing of the turn sent yet. Sending writes nothing, so
// that state is also the one a kill just after the result went out leaves: the relaunch is welcomed
// with turn.start redelivered (the result never arrived) or not (the server holds it). Either way
// `turn.accepted` and the startup facts held behind it are sent once, from the outbox, the result
// once, as journalled, and the provider is started again for the next command. The built bin against the
// hand-made server, on the fake app-server.

const TURN = { commandId: "turn", type: "turn.start", payload: { text: "hang" } } as const;

const eventTypes = (conn: PeerConnection): string[] => conn.events().map((event) => String(event.eventType));

describe("a turn.start killed once its answer is journalled", { timeout: 60_000 }, () => {
  it.each([{ redelivered: true }, { redelivered: false }])(
    "sends turn.accepted and the answer once after a relaunch (redelivered: $redelivered)",
    async ({ redelivered }) => {
      await withWork(async (work) => {
        const { on, conn, command } = await killedAtJournalWrite(work, TURN, journalledDone("turn"));
        // Closed by the kill: everything the runner sent on it has been read.
        await conn.closed;
        // Durable, not sent: neither the answer nor turn.accepted left the killed runner.
        expect(conn.resultsOf("turn")).toEqual([]);
        expect(eventTypes(conn)).not.toContain("turn.accepted");
        const acked = Math.max(...conn.events().map((event) => Number(event.sourceSeq)));

        const { run, conn: next } = await relaunchedThroughHandshake(on);
        next.welcome({
          ackedSourceSeq: acked,
          pendingCommands: redelivered ? [PeerConnection.command(command)] : [],
        });
        // The next command resumes the provider: its answer comes after the outbox and the replay.
        next.sendCommand({ commandId: "snapshot", controllerSeq: 4, type: "session.snapshot" });
        expect(await next.resultOf("snapshot")).toMatchObject({ status: "completed" });

        const resent = eventTypes(next);
        expect(resent.slice(0, 3)).toEqual(["turn.accepted", "harness.diagnostic", "harness.diagnostic"]);
        expect([...eventTypes(conn), ...resent].filter((type) => type === "turn.accepted")).toHaveLength(1);
        // Each event once: the relaunch numbers on from what the server acknowledged.
        expect(next.events().map((event) => event.sourceSeq)).toEqual(
          next.events().map((_, index) => acked + 1 + index),
        );
        const answers = next.resultsOf("turn");
        expect(answers).toHaveLength(redelivered ? 1 : 0);
        if (redelivered)
          expect(answers[0]).toMatchObject({
            status: "completed",
            result: { status: "accepted", providerTurnId: expect.any(String) },
          });
        // The snapshot found the provider started again on the session (the killed runner's exited with it).
        const starts = await providerStarts(on.codexHome);
        expect(starts).toHaveLength(2);

        run.child.kill("SIGKILL");
        await run.closed;
        for (const pid of starts) await goneWithin(pid);
      });
    },
  );
});
