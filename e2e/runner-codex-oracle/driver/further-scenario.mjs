// The `further` scenario of the Codex driver: what the other scenarios leave out. A very long
// instruction string; turns in a row whose usage accumulates, then a snapshot; two messages and
// a call in one response; a call whose arguments are not JSON; a call with large arguments;
// control characters in an answer and in a call; a model error right after a tool call; an
// interrupt while the answer is streaming; empty and blank turn inputs; the runner SIGKILLed before
// the model's first byte, then resumed; a close while an answer streams. Written for this repository.
import { printModelToolOutputs } from "./edge-scenario.mjs";
import { alive } from "./process-alive.mjs";

/** The thread's base instructions: far longer than a usual prompt, in several scripts. */
export const LONG_INSTRUCTIONS = `You are a Paperclip agent under test. ${"Follow the board's rules — règles, 規則, правила. ".repeat(1_200)}End of instructions.`;

/** Arguments a model sends for a call that are not JSON (an object cut short). */
export const BROKEN_ARGUMENTS = '{"body": "cut short';

/** A tool body of about 100 000 characters (some of them 4-byte) the server's handler receives whole. */
export const LARGE_BODY = `large: ${"0123456789abcdef𝄞 ".repeat(5_500)}end`;

/** One ASCII character, 2048 two-byte ones (ending on byte 4097), one more ASCII character. */
export const BYTE_BOUNDARY_TEXT = `x${"é".repeat(2048)}y`;

/** Control characters (NUL, BEL, ESC, CR, TAB), line and paragraph separators, a BOM, bidi and zero-width marks. */
export const CONTROL_TEXT =
  "nul\u0000 bel\u0007 esc\u001b[31mred\u001b[0m cr\r\nlf tab\t ls\u2028ps\u2029 bom\ufeff rtl\u202eabc\u202c zw\u200b.";

/** The answer interrupted mid-stream: these deltas are sent, then the model holds the response open. */
export const INTERRUPTED_DELTAS = ["The answer ", "begins, ", "then the ", "server interrupts"];

/** The answer streaming when the server closes the session: these deltas, then the response held open. */
export const CLOSED_DELTAS = ["Still ", "streaming ", "at the close"];

/** Each turn's token usage (input, output): Codex reports it cumulatively. */
const usage = (input_tokens, output_tokens) => ({ input_tokens, output_tokens });

/** `h` is the driver's session (oracle-session.mjs). */
export async function runFurtherScenario(h) {
  await h.attempt("usage-1", () =>
    h.runTurn("usage-1", "first of three", [{ text: "one", usage: usage(1_000, 10) }]),
  );
  h.mark("instructions", {
    reachedModel: String(h.stub.requests[0]?.instructions ?? "").includes(LONG_INSTRUCTIONS),
  });
  await h.attempt("usage-2", () =>
    h.runTurn("usage-2", "second of three", [{ text: "two", usage: usage(2_000, 20) }]),
  );
  // Two assistant messages and a call in one response.
  await h.attempt("two-messages", () =>
    h.runTurn("two-messages", "say two things, then report", [
      {
        items: [
          {
            type: "message",
            role: "assistant",
            id: "msg_stub_first",
            content: [{ type: "output_text", text: "first note" }],
          },
        ],
        text: "second note",
        tool: "report_progress",
        arguments: { body: "between notes" },
        usage: usage(3_000, 30),
      },
      { text: "after the notes", usage: usage(3_100, 5) },
    ]),
  );
  await h.attempt("snapshot-after-usage", async () => {
    const read = await h.request("thread/read", { includeTurns: false });
    h.mark("snapshot-after-usage", {
      sameThread: read.thread.id === h.threadId,
      statuses: read.thread.turns.map((turn) => turn.status),
    });
  });
  // Codex cannot parse the call's arguments: what it tells the model, and whether the server sees the call.
  await h.attempt("broken-arguments", () =>
    h.runTurn("broken-arguments", "report with broken arguments", [
      { tools: [{ tool: "report_progress", rawArguments: BROKEN_ARGUMENTS }] },
      { text: "the arguments were broken" },
    ]),
  );
  await h.attempt("large-arguments", () =>
    h.runTurn("large-arguments", "report at length", [
      { tool: "report_progress", arguments: { body: LARGE_BODY } },
      { text: "reported at length" },
    ]),
  );
  // Text whose last 2-byte character ends on UTF-8 byte 4097: where the event bound cuts it.
  await h.attempt("byte-boundary", () =>
    h.runTurn("byte-boundary", "answer up to the byte bound", [
      { tool: "report_progress", arguments: { body: BYTE_BOUNDARY_TEXT } },
      { text: BYTE_BOUNDARY_TEXT },
    ]),
  );
  const controlDeltas = [CONTROL_TEXT.slice(0, 17), CONTROL_TEXT.slice(17, 40), CONTROL_TEXT.slice(40)];
  await h.attempt("control-characters", () =>
    h.runTurn("control-characters", "answer with control characters", [
      { tool: "report_progress", arguments: { body: CONTROL_TEXT } },
      { text: CONTROL_TEXT, deltas: controlDeltas },
    ]),
  );
  printModelToolOutputs(h);
  // The call is answered, then the model's next request fails (Codex retries nothing here).
  await h.attempt("error-after-tool", () =>
    h.runTurn("error-after-tool", "report, then fail", [
      { tool: "report_progress", arguments: { body: "before the error" } },
      { status: 500, message: "stub failed after the tool" },
    ]),
  );
  await h.attempt("after-error", () => h.runTurn("after-error", "still there?", [{ text: "still here" }]));
  await h.attempt("interrupt-mid-stream", () =>
    h.runTurn(
      "interrupt-mid-stream",
      "answer, to be cut off",
      [{ text: INTERRUPTED_DELTAS.join(""), deltas: INTERRUPTED_DELTAS, stallAfterDeltas: true }],
      async (turnId) => {
        // Every delta reached the server before it interrupts: one defined point for both runners.
        await h.until(() => deltasOf(h, turnId) >= INTERRUPTED_DELTAS.length, "the streamed deltas");
        await h.request("turn/interrupt", { turnId });
      },
    ),
  );
  // An input without text (the server's transport sends an empty turn text), then one of white space only.
  await h.attempt("empty-input", () => inputOnlyTurn(h, "empty-input", []));
  await h.attempt("blank-input", () => inputOnlyTurn(h, "blank-input", [{ type: "text", text: " \n\t " }]));
  // An empty input while a turn is active: which refusal comes first.
  await h.attempt("empty-while-active", async () => {
    const before = h.stub.requests.length;
    await h.runTurn(
      "empty-while-active",
      "the only turn",
      [{ text: "only one turn", gate: "empty-while-active" }],
      async () => {
        await h.until(() => h.stub.requests.length > before, "the active turn's model request");
        const second = await h.request("turn/start", { input: [] }).then(
          () => ({ accepted: true }),
          (error) => ({ accepted: false, refusal: String(error?.message ?? error).slice(0, 500) }),
        );
        h.mark("empty-while-active:second", second);
        h.stub.open("empty-while-active");
      },
    );
  });
  await h.attempt("killed-before-first-byte", () => killRunnerBeforeFirstByte(h));
  await h.attempt("after-kill", () =>
    h.runTurn("after-kill", "say hello again", [{ text: "hello after the kill" }]),
  );
  // Left in flight while its answer streams: the driver's close stops it (`turn.stop`, drain, suspend).
  await h.attempt("streaming-at-close", async () => {
    h.stub.push({ text: CLOSED_DELTAS.join(""), deltas: CLOSED_DELTAS, stallAfterDeltas: true });
    const turn = await h.request("turn/start", { input: [{ type: "text", text: "stream until closed" }] });
    await h.until(() => deltasOf(h, turn.turn.id) >= CLOSED_DELTAS.length, "the streamed deltas");
    h.mark("streaming-at-close");
  });
}

/** How many answer deltas of the turn `turnId` the server has seen. */
const deltasOf = (h, turnId) =>
  h.notifications.filter((n) => n.method === "item/agentMessage/delta" && n.params?.turnId === turnId).length;

/** A turn.start of `input` alone: refused or run (answered by the stub), as the runner decides; the script left clean. */
async function inputOnlyTurn(h, name, input) {
  h.stub.push({ text: "answered the input" });
  const before = h.stub.requests.length;
  const started = await h.request("turn/start", { input }).then(
    (turn) => ({ accepted: true, turnId: turn.turn.id }),
    (error) => ({ accepted: false, refusal: String(error?.message ?? error).slice(0, 500) }),
  );
  if (started.accepted) {
    await h.until(() => h.turnCompleted(started.turnId) !== undefined, "the input's turn to complete");
  }
  h.stub.discard();
  h.mark(name, {
    accepted: started.accepted,
    refusal: started.refusal,
    status: started.accepted ? h.turnCompleted(started.turnId)?.params?.turn?.status : undefined,
    modelRequests: h.stub.requests.length - before,
  });
}

/**
 * The runner is SIGKILLed once the turn's user message is committed and the model has the
 * request but has sent no byte; a new transport on the same state resumes the thread.
 */
async function killRunnerBeforeFirstByte(h) {
  h.stub.push({ silent: true });
  const before = h.stub.requests.length;
  const itemsCompleted = () => h.notifications.filter((n) => n.method === "item/completed").length;
  const itemsBefore = itemsCompleted();
  const turn = await h.request("turn/start", { input: [{ type: "text", text: "wait for the first byte" }] });
  await h.until(() => h.stub.requests.length > before, "the silent model request");
  await h.until(() => itemsCompleted() > itemsBefore, "the turn's committed user message");
  const evidence = h.bundle.evidence();
  const providerPid = evidence.providerPid ?? evidence.codexPid;
  process.kill(evidence.runnerPid, "SIGKILL");
  await h.until(() => h.bundle.evidence().runnerExited, "the killed runner to be reaped");
  await h.bundle.detachControllerForRestart();
  h.resume({ resumeActiveTurnId: turn.turn.id });
  const read = await h.request("thread/read", { includeTurns: false });
  h.mark("killed-before-first-byte", {
    sameThread: read.thread.id === h.threadId,
    statuses: read.thread.turns.map((entry) => entry.status),
    oldProviderAlive: alive(providerPid),
  });
}
