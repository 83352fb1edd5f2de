// The `reopen` and `reopen-stopped` scenarios of the Codex driver: a run closes (drain,
// suspend), then the next run of the same session reopens it, as the server does between two
// runs: a new transport on the same state, the thread to resume. Written for this repository.

/**
 * `h` is the driver's toolkit (attempt, mark, runTurn, until, stub, request, close, resume,
 * threadId). `stopped`: the first run closes with a turn in flight (turn.stop before the suspend).
 */
export async function runReopenScenario(h, stopped) {
  await h.attempt("plain", () => h.runTurn("plain", "say hello", [{ text: "hello from the first run" }]));
  if (stopped) {
    await h.attempt("in-flight", async () => {
      h.stub.push({ stall: true });
      const before = h.stub.requests.length;
      await h.request("turn/start", { input: [{ type: "text", text: "work on" }] });
      await h.until(() => h.stub.requests.length > before, "the stalled model request");
      h.mark("in-flight");
    });
  }
  await h.attempt("first-close", async () => {
    await h.close("first run finished");
    h.mark("first-close");
  });
  h.resume();
  await h.attempt("reopened", async () => {
    const read = await h.request("thread/read", { includeTurns: false });
    h.mark("reopened", { sameThread: read.thread.id === h.threadId });
  });
  await h.attempt("second", () =>
    h.runTurn("second", "say hello again", [{ text: "hello from the second run" }]),
  );
}
