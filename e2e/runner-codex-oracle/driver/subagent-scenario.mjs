// The `subagent` scenario of the Codex driver (ours alone): turns in which the model spawns a
// sub-agent with Codex's `multi_agent_v1.spawn_agent` tool (`features.multi_agent`, left on by
// the server's launch arguments). Codex runs the child's turn beside its parent's, so their model
// requests race: the stub routes each by its content (`when`), not by its order. Codex sometimes
// sends the child's first notifications ahead of the parent's completed spawn, which names the
// child (the "early order", docs/compatibility.md); every spawning turn gives it a chance.
// Written for this repository.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** How many spawning turns one session runs (Codex counts open children against a limit of its own). */
export const SPAWNING_TURNS = 4;

/** The texts of turn `n`: the user's, the child's task and answer, the parent's final answer. */
export const spawnTexts = (n) => ({
  turn: `delegate job ${n} to a helper`,
  task: `helper task ${n}: reply with the word ready`,
  childAnswer: `ready from helper ${n}`,
  parentAnswer: `the helper of job ${n} is on it`,
  callId: `call_spawn_${n}`,
});

const inputItems = (body) => (Array.isArray(body.input) ? body.input : []);
/** The text of the request's user messages (where Codex puts a turn's input and a child's task). */
const userText = (body) =>
  inputItems(body)
    .filter((item) => item.type === "message" && item.role === "user")
    .map((item) => JSON.stringify(item.content ?? ""))
    .join("\n");
const spawnOutput = (body, callId) =>
  inputItems(body).find((item) => item.type === "function_call_output" && item.call_id === callId);

/**
 * Turn `n`'s requests told apart by content, each kind holding for one request: the parent's
 * follow-up carries the spawn's output; the child's (a fresh thread, not a fork) has the task as
 * its user message; the parent's first has the turn's text and neither.
 */
function spawnRequestKinds(n) {
  const texts = spawnTexts(n);
  const followUp = (body) => spawnOutput(body, texts.callId) !== undefined;
  const child = (body) => !followUp(body) && userText(body).includes(texts.task);
  const parentFirst = (body) => !followUp(body) && !child(body) && userText(body).includes(texts.turn);
  return { followUp, child, parentFirst };
}

/** `descendantThreadIds` of the runner's `codex-provider-state.json` (under the transport's state). */
function savedDescendants(stateDirectory) {
  const find = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isFile() && entry.name === "codex-provider-state.json") return path;
      // Codex's own home holds no runner state.
      const found = entry.isDirectory() && entry.name !== "codex-home" ? find(path) : null;
      if (found !== null) return found;
    }
    return null;
  };
  const path = find(stateDirectory);
  return path === null ? null : (JSON.parse(readFileSync(path, "utf8")).descendantThreadIds ?? null);
}

/** The methods of the descendant diagnostics the transport delivered naming `threadId`, in order. */
const descendantMethods = (h, threadId) =>
  h.notifications
    .filter((note) => note.method === "paperclip/canonicalProviderEvent")
    .map((note) => note.params)
    .filter(
      (event) =>
        event?.eventType === "harness.diagnostic" &&
        event.payload?.classification === "descendant" &&
        event.payload.receivedThreadId === threadId,
    )
    .map((event) => event.payload.method);

/** `h` is the driver's session (oracle-session.mjs). */
export async function runSubagentScenario(h) {
  for (let n = 1; n <= SPAWNING_TURNS; n += 1) {
    const texts = spawnTexts(n);
    const kinds = spawnRequestKinds(n);
    await h.attempt(`spawn-${n}`, async () => {
      await h.runTurn(`spawn-${n}`, texts.turn, [
        {
          when: kinds.parentFirst,
          tools: [
            {
              tool: "spawn_agent",
              namespace: "multi_agent_v1",
              callId: texts.callId,
              arguments: { message: texts.task },
            },
          ],
        },
        { when: kinds.child, text: texts.childAnswer },
        { when: kinds.followUp, text: texts.parentAnswer },
      ]);
      // The spawn's output, as Codex told the parent's model: the child's thread id.
      const output = h.stub.requests.map((body) => spawnOutput(body, texts.callId)).find(Boolean);
      const childThreadId = JSON.parse(output?.output ?? "{}").agent_id ?? null;
      // The child may still be at work after its parent's turn: its end is awaited, so each turn
      // starts with no child running and the close leaves none mid-turn.
      await h.until(() => h.stub.requests.some(kinds.child), `the helper of job ${n} to ask the model`);
      await h.until(
        () => descendantMethods(h, childThreadId).includes("turn/completed"),
        `the helper of job ${n}'s turn to end`,
      );
      h.mark(`spawn-${n}:child`, {
        childThreadId,
        childRequests: h.stub.requests.filter(kinds.child).length,
        descendantMethods: descendantMethods(h, childThreadId),
      });
    });
  }
  h.mark("descendants", { saved: savedDescendants(h.stateDirectory) });
}
