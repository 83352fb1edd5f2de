import { describe, expect, it } from "vitest";
import { opencodeRunResult, resultDigest } from "./opencode-run-result.js";

const contract = { revision: "rev-1", criterionIds: ["c-1", "c-2"] };
const result = (claim: Record<string, unknown> = {}, over: Record<string, unknown> = {}) => ({
  schema: "paperclip.run_result.v1",
  reportedWorkDisposition: "done",
  summary: "did it",
  completionClaim: {
    contractRevision: "rev-1",
    objectiveSatisfied: true,
    criteria: [
      { criterionId: "c-1", status: "satisfied", evidenceRefs: [] },
      { criterionId: "c-2", status: "satisfied", evidenceRefs: [] },
    ],
    remainingWork: [],
    ...claim,
  },
  evidence: [],
  verification: [],
  attentionRequests: [],
  artifacts: [],
  ...over,
});
const context = { threadId: "thread-1", activeTurnId: "turn-1", contract, proposedDigest: null };
const params = (value: unknown, over: Record<string, unknown> = {}) => ({
  threadId: "thread-1",
  turnId: "turn-1",
  itemId: "semantic-result",
  result: value,
  ...over,
});

describe("opencodeRunResult", () => {
  it("proposes the active turn's result that claims the bound contract", () => {
    expect(opencodeRunResult(params(result()), context)).toEqual({
      kind: "propose",
      result: result(),
      disposition: "done",
      summary: "did it",
      digest: resultDigest(result()),
    });
  });

  it("takes an identical repeat (keys in any order) as nothing, and refuses a different one", () => {
    const { summary, ...rest } = result();
    const proposed = { ...context, proposedDigest: resultDigest(result()) };
    expect(opencodeRunResult(params({ summary, ...rest }), proposed)).toEqual({ kind: "duplicate" });
    expect(opencodeRunResult(params(result({}, { summary: "other" })), proposed)).toEqual({
      kind: "invalid",
      reason: "OpenCode emitted conflicting paperclip/runResult notifications for one turn",
    });
  });

  it("takes another thread's or turn's as foreign", () => {
    expect(opencodeRunResult(params(result(), { threadId: "thread-2" }), context)).toEqual({
      kind: "foreign",
      code: "thread_binding_mismatch",
    });
    expect(opencodeRunResult(params(result(), { turnId: "turn-9" }), context)).toEqual({
      kind: "foreign",
      code: "turn_binding_mismatch",
    });
  });

  it.each([
    [
      "no active turn",
      params(result()),
      { activeTurnId: null },
      "OpenCode emitted paperclip/runResult without an active provider turn",
    ],
    [
      "no turn named",
      params(result(), { turnId: undefined }),
      {},
      "OpenCode paperclip/runResult is not bound to the active provider turn",
    ],
    ["no result", params(undefined), {}, "OpenCode paperclip/runResult omitted its result"],
    [
      "no contract bound",
      params(result()),
      { contract: null },
      "OpenCode paperclip/runResult has no bound completion contract",
    ],
    [
      "no completion claim",
      params(result({}, { completionClaim: undefined })),
      {},
      "OpenCode paperclip/runResult omitted its completion claim",
    ],
    [
      "no summary",
      params(result({}, { summary: undefined })),
      {},
      "provider semantic result failed the Paperclip result schema",
    ],
    [
      "another revision",
      params(result({ contractRevision: "rev-2" })),
      {},
      "OpenCode paperclip/runResult changed its completion contract revision",
    ],
    [
      "a repeated criterion",
      params(
        result({
          criteria: [
            { criterionId: "c-1", status: "satisfied", evidenceRefs: [] },
            { criterionId: "c-1", status: "satisfied", evidenceRefs: [] },
          ],
        }),
      ),
      {},
      "OpenCode paperclip/runResult repeated a completion criterion",
    ],
    [
      "a criterion missing",
      params(result({ criteria: [{ criterionId: "c-1", status: "satisfied", evidenceRefs: [] }] })),
      {},
      "OpenCode paperclip/runResult changed its bound completion criteria",
    ],
    [
      "a criterion not bound",
      params(
        result({
          criteria: [
            { criterionId: "c-1", status: "satisfied", evidenceRefs: [] },
            { criterionId: "c-3", status: "satisfied", evidenceRefs: [] },
          ],
        }),
      ),
      {},
      "OpenCode paperclip/runResult changed its bound completion criteria",
    ],
  ])("refuses %s", (_name, given, over, reason) => {
    expect(opencodeRunResult(given, { ...context, ...over })).toEqual({ kind: "invalid", reason });
  });
});
