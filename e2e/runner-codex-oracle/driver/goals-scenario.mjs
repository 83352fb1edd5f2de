// The `goals` scenario of the Codex driver: the goal API through the server's transport
// (session.goal.* commands, PRP command v2). Written for this repository.

/**
 * `h` is the driver's session (oracle-session.mjs). A paused goal (an active one on an idle
 * thread makes Codex start a turn by itself), read back, cleared; then a budget increase, which
 * only managed providers take.
 */
export async function runGoalsScenario(h) {
  const goalStep = async (name, method, params) => {
    await h.attempt(name, async () => {
      const result = await h.request(method, params);
      h.mark(name, { result });
    });
  };
  await goalStep("goal-get-empty", "thread/goal/get", {});
  await goalStep("goal-set", "thread/goal/set", {
    objective: "Ship the release notes",
    status: "paused",
    tokenBudget: 5000,
  });
  await goalStep("goal-get", "thread/goal/get", {});
  await goalStep("goal-clear", "thread/goal/clear", {});
  await goalStep("goal-get-cleared", "thread/goal/get", {});
  await goalStep("budget", "session/budget/increase", { maxSessionListCostUsd: 5 });
  await h.attempt("snapshot", async () => {
    const read = await h.request("thread/read", { includeTurns: false });
    h.mark("snapshot", { sameThread: read.thread.id === h.threadId });
  });
}
