// The `lifecycle` scenario of the Codex driver: `runner.drain` and `runner.suspend` sent on their
// own (the server's transport sends them only inside its close): a drain while idle and while a
// turn is held, a suspend while idle, a command queued once the suspended runner is gone, the next
// runner resuming the session for a turn, then a suspend mid-turn. Written for this repository.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { alive } from "./process-alive.mjs";

/** The `runner-state.json` fields the server reads (its close and its maintenance settle); absent is null. */
const SERVER_READ_FIELDS = [
  "schema",
  "runnerInstanceId",
  "environmentLeaseId",
  "runId",
  "normalizedSessionId",
  "turnId",
  "itemId",
  "lifecycle",
  "pendingTerminalDelivery",
  "lastControllerCommandSeq",
  "pendingProviderCleanup",
  "nextSourceSeq",
  "ackedSourceSeq",
  "outbox",
  "recoverableFailure",
];

function runnerState(h) {
  const state = JSON.parse(readFileSync(join(h.stateDirectory, "runner", "runner-state.json"), "utf8"));
  return Object.fromEntries(SERVER_READ_FIELDS.map((field) => [field, state[field] ?? null]));
}

/** Whether the current runner and its Codex still run. */
function processes(h) {
  const evidence = h.bundle.evidence();
  return {
    runnerAlive: alive(evidence.runnerPid),
    codexAlive: alive(evidence.providerPid ?? evidence.codexPid),
  };
}

/** A runner.suspend, then (once the runner has left) the state file it left and what Codex did. */
async function suspend(h, tap, name) {
  const answered = await tap.send("runner.suspend");
  await h.until(() => h.bundle.evidence().runnerExited, "the suspended runner to exit");
  h.mark(name, { ...answered, state: runnerState(h), ...processes(h) });
}

/** `h` is the driver's session (oracle-session.mjs); `tap` sends raw commands (control-plane-tap.mjs). */
export async function runLifecycleScenario(h, tap) {
  await h.attempt("plain", () => h.runTurn("plain", "say hello", [{ text: "hello" }]));
  await h.attempt("drain-idle", async () => {
    const before = tap.committedCount();
    const drained = await tap.send("runner.drain");
    h.mark("drain-idle", { ...drained, ...processes(h) });
    h.mark("snapshot-after-drain", await tap.send("session.snapshot"));
    h.mark("events-during-drain", { count: tap.committedCount() - before });
  });
  await h.attempt("after-drain", () => h.runTurn("after-drain", "still there?", [{ text: "still here" }]));
  const itemsCompleted = () => h.notifications.filter((n) => n.method === "item/completed").length;
  await h.attempt("drain-mid-turn", async () => {
    const itemsBefore = itemsCompleted();
    await h.runTurn(
      "drain-mid-turn",
      "wait for the gate",
      [{ text: "held answer", gate: "drain" }],
      async (_turnId, before) => {
        // One defined point for both runners: the model holds the request and the turn's user
        // message is committed (every event the turn has made so far reached the server).
        await h.until(() => h.stub.requests.length > before, "the held model request");
        await h.until(() => itemsCompleted() > itemsBefore, "the held turn's committed user message");
        h.mark("drain-mid-turn:drain", { ...(await tap.send("runner.drain")), ...processes(h) });
        h.stub.open("drain");
      },
    );
  });
  await h.attempt("suspend-idle", () => suspend(h, tap, "suspend-idle"));
  // No runner is left to answer: the command waits in the server's log.
  await h.attempt("after-suspend", async () => {
    h.mark("after-suspend", await tap.send("session.snapshot", {}, 0));
  });
  await h.attempt("first-close", async () => {
    await h.close("first run finished");
    h.mark("first-close");
  });
  // The next run: a new transport on the same state (a fresh ticket), the thread resumed.
  h.resume();
  await h.attempt("reopened", async () => {
    const read = await h.request("thread/read", { includeTurns: false });
    h.mark("reopened", { sameThread: read.thread.id === h.threadId });
  });
  await h.attempt("resumed", () => h.runTurn("resumed", "say hello again", [{ text: "hello again" }]));
  await h.attempt("suspend-mid-turn", async () => {
    h.stub.push({ stall: true });
    const before = h.stub.requests.length;
    await h.request("turn/start", { input: [{ type: "text", text: "work on" }] });
    await h.until(() => h.stub.requests.length > before, "the stalled model request");
    await suspend(h, tap, "suspend-mid-turn");
  });
}
