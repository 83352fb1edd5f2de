// The `pending` scenario of the Codex driver: `session.snapshot`, `runner.drain` and
// `runner.suspend` while the server's handler holds a tool call back (the lifecycle scenario
// sends them while the model holds a turn, or idle), then the next run resuming the thread on a
// fresh runner, the held answer released late. Written for this repository.
import { alive } from "./process-alive.mjs";
import { RESUMED_THREAD_TURN_START } from "./resumed-turn-start.mjs";

/** Bodies of the calls the server's handler holds until the driver releases them. */
export const DRAIN_HELD_BODY = "held through a drain";
export const SUSPEND_HELD_BODY = "held through a suspend";

const processes = (h) => {
  const evidence = h.bundle.evidence();
  return {
    runnerAlive: alive(evidence.runnerPid),
    codexAlive: alive(evidence.providerPid ?? evidence.codexPid),
  };
};

/** `h` is the driver's session (oracle-session.mjs); `tap` sends raw commands (control-plane-tap.mjs). */
export async function runPendingScenario(h, tap) {
  const heldCall = (body) =>
    h.until(() => h.toolCalls.some((call) => call.arguments?.body === body), `the held call "${body}"`);
  await h.attempt("plain", () => h.runTurn("plain", "say hello", [{ text: "hello" }]));
  await h.attempt("drain-pending", () =>
    h.runTurn(
      "drain-pending",
      "report, held through a drain",
      [{ tool: "report_progress", arguments: { body: DRAIN_HELD_BODY } }, { text: "after the drain" }],
      async () => {
        await heldCall(DRAIN_HELD_BODY);
        h.mark("drain-pending:snapshot", await tap.send("session.snapshot", {}, 3_000));
        h.mark("drain-pending:drain", { ...(await tap.send("runner.drain", {}, 3_000)), ...processes(h) });
        h.releaseHeldToolCall(DRAIN_HELD_BODY);
      },
    ),
  );
  await h.attempt("suspend-pending", async () => {
    h.stub.push(
      { tool: "report_progress", arguments: { body: SUSPEND_HELD_BODY } },
      { text: "after the suspend" },
    );
    const turn = await h.request("turn/start", {
      input: [{ type: "text", text: "report, held through a suspend" }],
    });
    await heldCall(SUSPEND_HELD_BODY);
    const answered = await tap.send("runner.suspend", {}, 10_000);
    await h
      .until(() => h.bundle.evidence().runnerExited, "the suspended runner to exit", 10_000)
      .catch(() => {});
    h.mark("suspend-pending", { ...answered, turnId: typeof turn.turn.id, ...processes(h) });
  });
  await h.attempt("first-close", async () => {
    await h.close("first run finished");
    h.mark("first-close");
  });
  h.releaseHeldToolCall(SUSPEND_HELD_BODY);
  h.resume(RESUMED_THREAD_TURN_START);
  await h.attempt("reopened", async () => {
    const read = await h.request("thread/read", { includeTurns: false });
    h.mark("reopened", { sameThread: read.thread.id === h.threadId });
  });
  h.stub.discard();
  await h.attempt("resumed", () => h.runTurn("resumed", "say hello again", [{ text: "hello again" }]));
}
