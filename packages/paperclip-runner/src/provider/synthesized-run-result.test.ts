import { describe, expect, it } from "vitest";
import { runResultProblem } from "../events/run-result.js";
import { synthesizedRunResult } from "./synthesized-run-result.js";

const contract = { revision: "rev-1", criterionIds: ["c-1", "c-2"] };
const stopped = (name: string, how: string) => ({
  schema: "paperclip.run_result.v1",
  reportedWorkDisposition: "needs_review",
  summary: `The ${name} run ${how} before it completed.`,
  completionClaim: {
    contractRevision: "rev-1",
    objectiveSatisfied: false,
    criteria: [
      { criterionId: "c-1", status: "unknown", evidenceRefs: [] },
      { criterionId: "c-2", status: "unknown", evidenceRefs: [] },
    ],
    remainingWork: [
      { blocksCompletion: true, description: `Review the stopped ${name} run and continue the task.` },
    ],
  },
  evidence: [],
  verification: [],
  attentionRequests: [
    { kind: "review", ownerClass: "human", summary: `Review the stopped ${name} run before continuing.` },
  ],
  artifacts: [],
});

describe("synthesizedRunResult", () => {
  it("takes a completed turn as done, its criteria satisfied by the agent's message", () => {
    const ref = "provider:opencode:agent-message";
    expect(synthesizedRunResult("opencode", "completed", contract, "shipped it")).toEqual({
      schema: "paperclip.run_result.v1",
      reportedWorkDisposition: "done",
      summary: "shipped it",
      completionClaim: {
        contractRevision: "rev-1",
        objectiveSatisfied: true,
        criteria: [
          { criterionId: "c-1", status: "satisfied", evidenceRefs: [ref] },
          { criterionId: "c-2", status: "satisfied", evidenceRefs: [ref] },
        ],
        remainingWork: [],
      },
      evidence: [{ ref }],
      verification: [],
      attentionRequests: [],
      artifacts: [],
    });
    expect(synthesizedRunResult("codex", "completed", contract, null).summary).toBe(
      "Codex completed the requested work.",
    );
  });

  it.each([
    ["failed", "Codex", "failed"],
    ["interrupted", "Codex", "stopped"],
    ["cancelled", "Codex", "stopped"],
  ] as const)("takes a %s turn as needs_review with a review asked of a human", (status, name, how) => {
    expect(synthesizedRunResult("codex", status, contract, "prose")).toEqual(stopped(name, how));
  });

  it("proposes only results upstream's schema takes", () => {
    for (const status of ["completed", "failed", "cancelled", "interrupted"] as const)
      expect(runResultProblem(synthesizedRunResult("opencode", status, contract, null))).toBeNull();
  });
});
