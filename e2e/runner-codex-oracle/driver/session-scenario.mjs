// The `turn` and `session` scenarios of the Codex driver: a plain turn (`turn`), then a tool
// call, a steer, an interrupt, a model error and a snapshot (`session`). Written for this repository.

/** `h` is the driver's session (oracle-session.mjs); `full`: the whole session after the plain turn. */
export async function runSessionScenario(h, full) {
  await h.attempt("plain", () =>
    h.runTurn("plain", "say hello", [
      { text: "hello from the stub", usage: { input_tokens: 21, output_tokens: 4 } },
    ]),
  );
  const answer = h.notifications.findLast(
    (n) => n.method === "item/completed" && n.params?.item?.type === "agentMessage",
  );
  h.print({ type: "answer", text: answer?.params?.item?.text ?? null });
  if (!full) return;
  await h.attempt("tool", async () => {
    await h.runTurn("tool", "report progress", [
      { tool: "report_progress", arguments: { body: "half way" } },
      { text: "progress reported" },
    ]);
    h.print({ type: "tool_calls", calls: h.toolCalls });
  });
  await h.attempt("steer", async () => {
    await h.runTurn(
      "steer",
      "start long work",
      [{ text: "first answer", gate: "steer" }, { text: "steered answer" }],
      async (turnId, before) => {
        await h.until(() => h.stub.requests.length > before, "the steer turn's model request");
        await h.request("turn/steer", {
          expectedTurnId: turnId,
          input: [{ type: "text", text: "also mention steering" }],
        });
        h.mark("steer:sent");
        h.stub.open("steer");
      },
    );
    h.print({ type: "steer_reached_model", value: h.lastRequestText().includes("also mention steering") });
  });
  await h.attempt("interrupt", () =>
    h.runTurn("interrupt", "work forever", [{ stall: true }], async (turnId, before) => {
      await h.until(() => h.stub.requests.length > before, "the stalled model request");
      await h.request("turn/interrupt", { turnId });
      h.mark("interrupt:sent");
    }),
  );
  // The model answers HTTP 500 (Codex retries nothing here): the turn ends failed, the session goes on.
  await h.attempt("model-error", () =>
    h.runTurn("model-error", "fail please", [{ status: 500, message: "stub overloaded" }]),
  );
  await h.attempt("snapshot", async () => {
    const read = await h.request("thread/read", { includeTurns: false });
    h.mark("snapshot", { sameThread: read.thread.id === h.threadId, turns: read.thread.turns.length });
  });
}
