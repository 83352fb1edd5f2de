// The `recovery` and `recovery-tool` scenarios of the Codex driver: the runner is killed mid-turn
// and the server resumes the thread on a new transport over the same state. Written for this repository.
import { alive } from "./process-alive.mjs";
import { RESUMED_THREAD_TURN_START } from "./resumed-turn-start.mjs";

/**
 * `h` is the driver's session (oracle-session.mjs). `pendingTool`: the model asks for a tool the
 * server never answers (recovery-tool); else the model stalls (recovery).
 */
export async function runRecoveryScenario(h, pendingTool) {
  await h.runTurn("plain", "say hello", [
    { text: "hello before the kill", usage: { input_tokens: 30, output_tokens: 7 } },
  ]);
  h.stub.push(pendingTool ? { tool: "report_progress", arguments: { body: "pending" } } : { stall: true });
  const requests = h.stub.requests.length;
  const itemsCompleted = () => h.notifications.filter((n) => n.method === "item/completed").length;
  const itemsBefore = itemsCompleted();
  const turn = await h.request("turn/start", { input: [{ type: "text", text: "long work" }] });
  await h.until(() => h.stub.requests.length > requests, "the stalled model request");
  // The kill lands at one defined point for both runners: the turn's user message is committed
  // (the server saw it) and the model has not answered.
  await h.until(() => itemsCompleted() > itemsBefore, "the stalled turn's committed user message");
  if (pendingTool) await h.until(() => h.toolCalls.length === 1, "the pending tool call");
  const evidence = h.bundle.evidence();
  h.print({ type: "killing", providerAlive: alive(evidence.providerPid ?? evidence.codexPid) });
  const providerPid = evidence.providerPid ?? evidence.codexPid;
  const killedAt = performance.now();
  process.kill(evidence.runnerPid, "SIGKILL");
  await h.until(() => h.bundle.evidence().runnerExited, "the killed runner to be reaped");
  await h.bundle.detachControllerForRestart();
  h.resume({ resumeActiveTurnId: turn.turn.id, ...RESUMED_THREAD_TURN_START });
  const read = await h.request("thread/read", { includeTurns: false });
  h.mark("resumed", {
    durationMs: performance.now() - killedAt,
    sameThread: read.thread.id === h.threadId,
    turns: read.thread.turns,
    oldProviderAlive: alive(providerPid),
  });
  await h.attempt("after-recovery", () =>
    h.runTurn("after-recovery", "say hello again", [{ text: "hello after the kill" }]),
  );
}
