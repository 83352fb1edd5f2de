import {
  codexPrepare,
  type DriverResult,
  driveCodexRunner,
  type ServerToolchain,
  type Step,
  withWork,
} from "./codex-durable.js";
import { command } from "./command-differential.js";
import { type Frame, turnText } from "./descendant-differential.js";

// What the request differentials share (`codex-reused-ids-upstream.test.ts`,
// `codex-question-forms-upstream.test.ts`): Codex's requests written by the fake app-server's
// "frames:" script with JSON-RPC ids of the test's choosing, in a turn that then goes silent.

/** Codex's `item/tool/requestUserInput` under JSON-RPC id `id`, not waited on. */
export const ask = (id: string | number, params: unknown): Frame => ({
  send: { id, method: "item/tool/requestUserInput", params },
});
/** Codex's `item/tool/call` under JSON-RPC id `id`, not waited on. */
export const toolCall = (id: string | number, params: unknown): Frame => ({
  send: { id, method: "item/tool/call", params },
});
/** A notification after the requests: once its event is committed, the runner has read them. */
export const mark: Frame = {
  notify: "item/started",
  params: { threadId: "$THREAD", turnId: "$TURN", item: { type: "agentMessage", id: "mark", text: "" } },
};

/** Prepare, open, then a turn playing `frames` and going silent. */
export const opened = (work: string, frames: readonly Frame[]): Step[] => [
  ...command("run.prepare", "prepare", codexPrepare(work)),
  ...command("session.open", "open", { reuse: "same_session" }),
  {
    op: "queue",
    type: "turn.start",
    id: "frames",
    payload: { text: turnText([...frames, { stop: true }]) },
  },
];

/** One runner (ours unless `runnerBin`) on `steps`, tool calls held until a "releaseTools" step. */
export const driveHeld = (
  tools: ServerToolchain,
  steps: (work: string) => Step[],
  runnerBin?: string,
): Promise<DriverResult> =>
  withWork((work) =>
    driveCodexRunner(tools, work, steps(work), {
      holdTools: true,
      ...(runnerBin === undefined ? {} : { runnerBin }),
    }),
  );
