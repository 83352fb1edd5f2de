// The `beyond` scenario of the Codex driver: what the other scenarios leave out. Three tool
// calls in one response answered three ways; multi-byte text streamed in deltas cut inside
// character sequences; answers with no text; model errors (401 retried once, 400, a 429 with
// `retry-after`); a snapshot after a failed turn; a steer sent right behind an interrupt; the
// runner stopped with SIGTERM mid-turn, then resumed; then an answer over 1 MiB. Written for
// this repository.
import { printModelToolOutputs, REFUSED_TOOL_BODY } from "./edge-scenario.mjs";
import { alive } from "./process-alive.mjs";
import { RESUMED_THREAD_TURN_START } from "./resumed-turn-start.mjs";

/** The tool body the driver's server handler fails by throwing (not a `success:false` answer). */
export const THROWN_TOOL_BODY = "please throw on this";

/** One unit of the long answer: 2-, 3- and 4-byte characters, a combining mark and a ZWJ emoji sequence. */
const UNIT = "héllo wörld 日本語テキスト e\u0301 👩‍💻 🎉 ";

/**
 * An answer of `units` units as the model streams it in `count` deltas, each cut inside a
 * character sequence (between a letter and its combining mark, inside the ZWJ sequence) but
 * never inside a UTF-16 surrogate pair, so each delta is valid JSON text on its own.
 */
function unicodeDeltas(units, count) {
  const text = UNIT.repeat(units);
  const deltas = [];
  let start = 0;
  for (let index = 1; index <= count; index += 1) {
    let end = index === count ? text.length : Math.round((text.length * index) / count) + (index % 7);
    if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end])) end += 1;
    deltas.push(text.slice(start, end));
    start = end;
  }
  return deltas;
}

/** A multi-byte answer of about 110 KiB of UTF-8 in 240 deltas. */
export const UNICODE_DELTAS = unicodeDeltas(2_000, 240);

/** The same over 1 MiB of UTF-8 in 240 deltas. */
export const LONG_UNICODE_DELTAS = unicodeDeltas(19_200, 240);

/** Waits for the model request of the turn started after `before` requests, then runs `body`. */
const onceAsked = (h, before, body) => async (turnId) => {
  await h.until(() => h.stub.requests.length > before, "the turn's model request");
  await body(turnId);
};

/** The outcome of a request, as a record: accepted, or refused with the (bounded) message. */
const outcomeOf = (promise) =>
  promise.then(
    () => ({ accepted: true }),
    (error) => ({ accepted: false, refusal: String(error?.message ?? error).slice(0, 500) }),
  );

/** `h` is the driver's session (oracle-session.mjs). */
export async function runBeyondScenario(h) {
  // Three calls in one response: the server answers one, refuses one (`success:false`) and
  // fails on one (its handler throws).
  await h.attempt("parallel-three", () =>
    h.runTurn("parallel-three", "report three times", [
      {
        tools: [
          { tool: "report_progress", arguments: { body: "first of three" } },
          { tool: "report_progress", arguments: { body: REFUSED_TOOL_BODY } },
          { tool: "report_progress", arguments: { body: THROWN_TOOL_BODY } },
        ],
      },
      { text: "three reported" },
    ]),
  );
  printModelToolOutputs(h);
  await h.attempt("unicode", () =>
    h.runTurn("unicode", "answer in many scripts", [
      {
        text: UNICODE_DELTAS.join(""),
        deltas: UNICODE_DELTAS,
        usage: { input_tokens: 200, output_tokens: 900 },
      },
    ]),
  );
  await h.attempt("reasoning-only", () =>
    h.runTurn("reasoning-only", "think, say nothing", [
      { reasoning: "Nothing needs saying.", noMessage: true },
    ]),
  );
  await h.attempt("empty-answer", () => h.runTurn("empty-answer", "answer with nothing", [{ text: "" }]));
  await h.attempt("unauthorized", () =>
    h.runTurn("unauthorized", "answer", [
      // Codex retries a 401 once (this scenario allows one retry): refused both times.
      ...Array.from({ length: 2 }, () => ({
        status: 401,
        message: "Incorrect API key provided.",
        code: "invalid_api_key",
      })),
    ]),
  );
  // The server reads the session between turns, after the failed one.
  await h.attempt("snapshot-after-failure", async () => {
    const read = await h.request("thread/read", { includeTurns: false });
    h.mark("snapshot-after-failure", {
      sameThread: read.thread.id === h.threadId,
      statuses: read.thread.turns.map((turn) => turn.status),
    });
  });
  await h.attempt("bad-request", () =>
    h.runTurn("bad-request", "answer", [
      { status: 400, message: "Invalid 'input': unsupported value.", code: "invalid_value" },
    ]),
  );
  // The next turn right behind the provider's error (no other command between them).
  await h.attempt("after-bad-request", () =>
    h.runTurn("after-bad-request", "still there?", [{ text: "still here" }]),
  );
  // A rate limit with `retry-after`: Codex 0.156.1 does not retry it; the turn fails.
  await h.attempt("retry-after", () =>
    h.runTurn("retry-after", "answer after waiting", [
      { status: 429, message: "Rate limit reached.", headers: { "retry-after": "1" } },
    ]),
  );
  // A steer queued right behind an interrupt, both sent before either is answered.
  await h.attempt("steer-after-interrupt", async () => {
    const before = h.stub.requests.length;
    await h.runTurn(
      "steer-after-interrupt",
      "wait to be interrupted",
      [{ stall: true }],
      onceAsked(h, before, async (turnId) => {
        const [interrupt, steer] = await Promise.all([
          outcomeOf(h.request("turn/interrupt", { turnId })),
          outcomeOf(
            h.request("turn/steer", {
              expectedTurnId: turnId,
              input: [{ type: "text", text: "steered after the interrupt" }],
            }),
          ),
        ]);
        h.mark("steer-after-interrupt:sent", { interrupt, steer });
      }),
    );
  });
  await h.attempt("after-steer-interrupt", () =>
    h.runTurn("after-steer-interrupt", "and now?", [{ text: "here again" }]),
  );
  await h.attempt("terminated", () => terminateRunnerMidTurn(h));
  // Last (upstream's runner cannot take it: see the test): over 1 MiB streamed after the resume.
  await h.attempt("long-unicode", () =>
    h.runTurn(
      "long-unicode",
      "answer at great length",
      [{ text: LONG_UNICODE_DELTAS.join(""), deltas: LONG_UNICODE_DELTAS }],
      undefined,
      // Every delta is committed through the server's control plane: this takes a while.
      60_000,
    ),
  );
}

/**
 * The runner is stopped with SIGTERM (as a host shutting down stops it) while the model stalls a
 * turn; a new transport on the same state resumes the thread, as the server recovers.
 */
async function terminateRunnerMidTurn(h) {
  h.stub.push({ stall: true });
  const before = h.stub.requests.length;
  const itemsCompleted = () => h.notifications.filter((n) => n.method === "item/completed").length;
  const itemsBefore = itemsCompleted();
  const turn = await h.request("turn/start", { input: [{ type: "text", text: "work until stopped" }] });
  await h.until(() => h.stub.requests.length > before, "the stalled model request");
  await h.until(() => itemsCompleted() > itemsBefore, "the stalled turn's committed user message");
  const evidence = h.bundle.evidence();
  const providerPid = evidence.providerPid ?? evidence.codexPid;
  process.kill(evidence.runnerPid, "SIGTERM");
  await h.until(() => h.bundle.evidence().runnerExited, "the terminated runner to exit", 20_000);
  await h.bundle.detachControllerForRestart();
  h.resume({ resumeActiveTurnId: turn.turn.id, ...RESUMED_THREAD_TURN_START });
  const read = await h.request("thread/read", { includeTurns: false });
  h.mark("terminated", {
    sameThread: read.thread.id === h.threadId,
    statuses: read.thread.turns.map((entry) => entry.status),
    oldProviderAlive: alive(providerPid),
  });
}
