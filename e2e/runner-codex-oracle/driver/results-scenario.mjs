// The `results` scenario of the Codex driver: what the server's handler answers a dynamic tool
// call with, beyond the usual short text (a text of 100 000 bytes; control characters, U+FFFE,
// U+FFFF and C1 controls; 300 content items), then a long session: 30 turns, `thread/read`,
// the close. `results-ours` (ours alone) answers with what upstream's runner cannot take: a
// lone UTF-16 surrogate (JSON allows the escape, serde_json refuses it: upstream's runner drops
// the connection on that frame, reconnects, is sent it again, and never settles the call) and a
// text of 600 000 bytes (a frame over upstream's 1 MiB once the server seals it in hex); and a
// turn text and a steer with a lone surrogate (U+FFFD in what Codex is sent). Written for this repository.
import { printModelToolOutputs } from "./edge-scenario.mjs";

const text = (value) => [{ type: "inputText", text: value }];

/** The server's answers, by the call's body (`server-request-answers.mjs` looks them up). */
export const RESULT_ITEMS = new Map([
  ["result 100k", text(`start ${"r".repeat(100_000)} end`)],
  ["result controls", text("nul \u0000 bell \u0007 del \u007f c1 \u0085 fffe \ufffe ffff \uffff rep \ufffd")],
  ["result 300 items", Array.from({ length: 300 }, (_, index) => text(`item ${index}`)[0])],
  ["result lone surrogates", text("lone \ud800 high and \udc00 low")],
  ["result 600k", text(`start ${"s".repeat(600_000)} end`)],
]);
/** The bodies both runners are asked about; the rest, ours alone. */
export const COMPARED_RESULTS = ["result 100k", "result controls", "result 300 items"];
export const OURS_ALONE_RESULTS = ["result lone surrogates", "result 600k"];
export const LONG_SESSION_TURNS = 30;
/** A turn text and a steer with a lone surrogate (ours alone). */
export const LONE_SURROGATE_TEXT = "a lone \ud83d in the prompt";
export const LONE_SURROGATE_STEER = "a lone \udc00 in the steer";

const stepName = (body) => body.replaceAll(" ", "-");

async function answeredWith(h, body) {
  const name = stepName(body);
  await h.attempt(name, () =>
    h.runTurn(name, `report ${body}`, [
      { tool: "report_progress", arguments: { body } },
      { text: `after ${name}` },
    ]),
  );
}

/** `h` is the driver's session (oracle-session.mjs); `oursAlone`: the inputs upstream's runner cannot take. */
export async function runResultsScenario(h, oursAlone) {
  if (oursAlone) {
    for (const body of OURS_ALONE_RESULTS) await answeredWith(h, body);
    await h.attempt("lone-surrogate-text", async () => {
      await h.runTurn("lone-surrogate-text", LONE_SURROGATE_TEXT, [{ text: "read it" }]);
      h.mark("lone-surrogate-text:told", { reachedModel: h.lastRequestText().includes("a lone \ufffd in") });
    });
    await h.attempt("lone-surrogate-steer", async () => {
      await h.runTurn(
        "lone-surrogate-steer",
        "wait for a steer",
        [{ text: "held for the steer", gate: "lone-steer" }, { text: "after the steer" }],
        async (turnId, before) => {
          await h.until(() => h.stub.requests.length > before, "the turn's model request");
          await h.request("turn/steer", {
            expectedTurnId: turnId,
            input: [{ type: "text", text: LONE_SURROGATE_STEER }],
          });
          h.stub.open("lone-steer");
        },
      );
      h.mark("lone-surrogate-steer:told", {
        reachedModel: h.lastRequestText().includes("a lone \ufffd in the steer"),
      });
    });
    printModelToolOutputs(h);
    return;
  }
  for (const body of COMPARED_RESULTS) await answeredWith(h, body);
  for (let turn = 1; turn <= LONG_SESSION_TURNS; turn += 1) {
    await h.attempt(`turn-${turn}`, () =>
      h.runTurn(`turn-${turn}`, `turn ${turn}`, [{ text: `answer ${turn}` }]),
    );
  }
  await h.attempt("read-after-long-session", async () => {
    const read = await h.request("thread/read", { includeTurns: true });
    h.mark("read-after-long-session", { sameThread: read.thread.id === h.threadId });
  });
  printModelToolOutputs(h);
}
