/**
 * The scripted harness's script when the launcher names one that does not exist
 * (the real server passes a path inside its own package that is not shipped):
 * ready; on `turn.start` an item, a `paperclip.run_result.v1` and a completed
 * terminal; then it exits. In the documented `--script` format.
 */
export const BUILTIN_SCRIPT = {
  steps: [{ ready: { harness: "paperclip-runnerd built-in script" } }],
  on: {
    "turn.start": [
      { event: { eventType: "item.completed", payload: { channel: "final", text: "scripted turn done" } } },
      {
        result: {
          schema: "paperclip.run_result.v1",
          reportedWorkDisposition: "done",
          summary: "The built-in scripted harness completed its turn.",
          completionClaim: {
            contractRevision: "1",
            objectiveSatisfied: true,
            criteria: [],
            remainingWork: [],
          },
          evidence: [],
          verification: [],
          attentionRequests: [],
          artifacts: [],
        },
      },
      { terminal: { status: "succeeded" } },
      { exit: 0 },
    ],
  },
} as const;

export const BUILTIN_SCRIPT_FILE = "builtin-fake-script.json";
