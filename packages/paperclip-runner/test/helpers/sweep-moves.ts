import fc from "fast-check";
import { codexPrepare } from "./codex-durable.js";
import { toolResult } from "./command-differential.js";

// The commands the generated sweep (`codex-command-sweep-upstream.test.ts`) draws: each type with
// the payloads it is generated with, valid and invalid, and the arbitrary that draws one.

/** One generated command: its type and payload, and how it changes the model when it succeeds. */
export interface Move {
  readonly type: string;
  readonly payload?: Record<string, unknown>;
  /** The payload is one the runners accept (a text for a turn, a valid provider descriptor). */
  readonly valid: boolean;
}

/**
 * The commands left out while the active turn waits for its runtime request's answer: upstream's
 * runner commits other events for them (open, docs/compatibility.md: a steer completes the turn
 * but leaves upstream's state `turn_active`, a close or destroy commits no terminal for it).
 */
export const DIFFER_ON_AN_ASKING_TURN: ReadonlySet<string> = new Set([
  "turn.steer",
  "session.close",
  "session.destroy",
]);

/** An answer the fake app-server's question set takes. */
export const ANSWERS = {
  schema: "paperclip.question_response.v1",
  answers: { color: { selectedOptionIds: ["option-2"] }, why: { text: "it is calm" } },
};

/** The payloads each command is generated with (`null` for a command that takes none). */
const PAYLOADS: Readonly<Record<string, readonly (Record<string, unknown> | null)[]>> = {
  "run.prepare": [{ valid: true }, { invalid: "model" }, { invalid: "approval" }, { skills: "yes" }],
  "session.open": [{ reuse: "same_session" }, { reuse: 5 }, {}],
  "turn.start": [
    { text: "hang" },
    // The fake app-server asks the user (a runtime request) and waits for its answer.
    { text: "ask" },
    { text: "" },
    {},
    { text: 5 },
    { text: null },
    { text: ["hang"] },
    // Extra fields and an `input` array are not read: the text is the turn's.
    { text: "hang", input: [{ type: "text", text: "other" }], extra: 1 },
    { input: [{ type: "text", text: "hang" }] },
  ],
  "turn.interrupt": [{}, { reason: "user" }, { reason: 5 }],
  "run.cancel": [{ reason: "user" }, { reason: null }],
  "turn.steer": [{ text: "x" }, {}, { text: 3 }, { text: null }, { text: [] }, { text: "x", input: [1] }],
  "turn.stop": [{}],
  "session.snapshot": [null],
  "session.close": [null],
  "session.destroy": [null],
  "runner.drain": [null],
  // Ends the sequence (`sweepSteps`): neither runner answers a command behind it.
  "runner.suspend": [null],
  "request.resolve": [
    // The live turn's last request (`$lastRuntimeRequest`, the driver's), answered. An answer the
    // question set does not take is left out: upstream's checks and words differ from ours (open,
    // docs/compatibility.md, "`request.resolve` with an answer the question set does not take").
    { requestId: "$lastRuntimeRequest", turnId: "t", response: ANSWERS },
    // Answers the question set does not take (refused, the request kept), and none at all.
    { requestId: "$lastRuntimeRequest", turnId: "t", response: { ...ANSWERS, answers: { color: {} } } },
    {
      requestId: "$lastRuntimeRequest",
      turnId: "t",
      response: { ...ANSWERS, answers: { color: { customText: "green" }, why: { text: "" } } },
    },
    { requestId: "$lastRuntimeRequest", turnId: "t" },
    { requestId: "nope", turnId: "t", response: {} },
    {},
    { requestId: 5, turnId: "t", response: {} },
    { requestId: null, turnId: null, response: null },
  ],
  "semantic_tool.result": [
    toolResult("nope"),
    { callId: "nope", result: {} },
    { ...toolResult("nope"), isError: "yes" },
    { ...toolResult("nope"), callId: ["nope"] },
    { callId: "nope", operationId: "report_progress" },
  ],
  "session.goal.get": [null],
  "session.goal.set": [
    { objective: "ship it" },
    {},
    { objective: 5 },
    { objective: "  " },
    { status: "bogus" },
    { objective: "ship it", tokenBudget: 0 },
  ],
  "session.goal.clear": [null],
};

export const move: fc.Arbitrary<Move> = fc.constantFrom(...Object.keys(PAYLOADS)).chain((type) =>
  fc.constantFrom(...(PAYLOADS[type] as (Record<string, unknown> | null)[])).map((payload) => ({
    type,
    ...(payload === null ? {} : { payload }),
    valid:
      payload === null ||
      (type === "run.prepare" ? payload.invalid === undefined : typeof payload.text === "string"),
  })),
);

/** A `run.prepare` payload of the generated kind. */
export function preparePayload(work: string, payload: Record<string, unknown>): Record<string, unknown> {
  const prepare = codexPrepare(work);
  const provider = { ...(prepare.provider as Record<string, unknown>) };
  if (payload.invalid === "model") provider.model = 5;
  if (payload.invalid === "approval") provider.approvalPolicy = "on-request";
  // Upstream's shipped runner does not read it: any JSON type prepares.
  if (payload.skills !== undefined) provider.includeSkillInstructions = payload.skills;
  return { ...prepare, provider };
}
