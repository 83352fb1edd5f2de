import type { Step } from "./codex-durable.js";
import { OPENCODE_QUESTION } from "./opencode-question-refusals.js";

// Turn scripts for the fake OpenCode proxy (`fake-opencode-proxy.cjs`): what the server's proxy
// sends the runner, `$thread` and `$turn` standing for the ids the fake uses.

type ScriptStep = Record<string, unknown>;

/** A `turn.start` whose text scripts the fake proxy's turn. */
export const scriptedTurn = (id: string, script: readonly ScriptStep[]): Step => ({
  op: "queue",
  type: "turn.start",
  payload: { text: `script:${JSON.stringify(script)}` },
  id,
});

/** The request the server's proxy forwards for OpenCode's `question.asked` (its driver's runtime request). */
export const opencodeRequest = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  schema: "paperclip.runtime_request.v2",
  requestKind: "runtime",
  requestId: "que_1",
  type: "input",
  status: "pending",
  prompt: "OpenCode requests user input.",
  input: OPENCODE_QUESTION,
  origin: { adapter: "opencode-server", provider: "opencode", method: "question.asked" },
  turnId: "$turn",
  itemId: "que_1",
  ...over,
});

export const askStep = (request: Record<string, unknown> = opencodeRequest()): ScriptStep => ({
  request: "paperclip/runtimeRequest",
  params: { request },
});

/** A `paperclip.run_result.v1` claiming the default `run.prepare`'s contract (`rev-1`, `criterion-1`). */
export const runResult = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  schema: "paperclip.run_result.v1",
  reportedWorkDisposition: "done",
  summary: "did it",
  completionClaim: {
    contractRevision: "rev-1",
    objectiveSatisfied: true,
    criteria: [{ criterionId: "criterion-1", status: "satisfied", evidenceRefs: [] }],
    remainingWork: [],
  },
  evidence: [],
  verification: [],
  attentionRequests: [],
  artifacts: [],
  ...over,
});

export const resultStep = (result: unknown, over: Record<string, unknown> = {}): ScriptStep => ({
  notify: "paperclip/runResult",
  params: { threadId: "$thread", turnId: "$turn", itemId: "semantic-result", result, ...over },
});

/** The answers the fake proxy logged to its requests, in order. */
export const proxyAnswers = (log: readonly Record<string, unknown>[]): unknown[] =>
  log.filter((record) => record.kind === "answer").map((record) => record.answer);
