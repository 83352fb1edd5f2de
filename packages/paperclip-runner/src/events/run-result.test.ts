import { describe, expect, it } from "vitest";
import { runResultProblem } from "./run-result.js";

const valid = {
  schema: "paperclip.run_result.v1",
  reportedWorkDisposition: "done",
  summary: "ok",
  completionClaim: { contractRevision: "r1", objectiveSatisfied: true, criteria: [], remainingWork: [] },
  evidence: [],
  verification: [{ commandOrCheck: "tests", status: "passed" }],
  attentionRequests: [],
  artifacts: [],
};

describe("runResultProblem", () => {
  it("accepts a structured run result", () => {
    expect(runResultProblem(valid)).toBeNull();
    expect(
      runResultProblem({
        ...valid,
        reportedWorkDisposition: "yielded",
        continuation: { kind: "retry", summary: "again", idempotencyKey: "k" },
      }),
    ).toBeNull();
  });

  it.each([
    [{ text: "done" }, "result.schema must be paperclip.run_result.v1"],
    [{ ...valid, summary: "" }, "result.summary must be a string of 1 to 12000 characters"],
    [
      { ...valid, reportedWorkDisposition: "yielded" },
      "result.continuation must be { kind, summary, idempotencyKey } (required when yielded)",
    ],
    [
      { ...valid, reportedWorkDisposition: "blocked" },
      "result.blocker must be { reasonCode, owner: { kind, name }, unblockAction, scope } (required when blocked)",
    ],
    [
      { ...valid, verification: [{ commandOrCheck: "x", status: "skipped" }] },
      "result.verification[0] is malformed",
    ],
    [{ ...valid, artifacts: "none" }, "result.artifacts must be an array"],
    [[valid], "the result must be a JSON object"],
    [{ ...valid, completionClaim: null }, "result.completionClaim must be an object"],
    [
      { ...valid, completionClaim: { ...valid.completionClaim, objectiveSatisfied: "yes" } },
      "result.completionClaim.objectiveSatisfied must be a boolean",
    ],
    [
      {
        ...valid,
        completionClaim: { ...valid.completionClaim, criteria: [{ criterionId: "c1", status: "met" }] },
      },
      "result.completionClaim.criteria[0] is malformed",
    ],
    [
      { ...valid, completionClaim: { ...valid.completionClaim, remainingWork: undefined } },
      "result.completionClaim.remainingWork must be an array",
    ],
    [{ ...valid, summary: "x", evidence: {}, artifacts: "none" }, "result.evidence must be an array"],
    [
      { ...valid, blocker: { reasonCode: "r" } },
      "result.blocker must be { reasonCode, owner: { kind, name }, unblockAction, scope } (required when blocked)",
    ],
  ])("names the first problem of %j", (value, reason) => {
    expect(runResultProblem(value)).toBe(reason);
  });
});
