import { describe, expect, it } from "vitest";
import { closeSteps, serverToolchainForFile } from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, failed } from "./helpers/command-differential.js";
import {
  NUMERIC_CASES,
  NUMERIC_QUESTION,
  numericAnswer,
} from "./helpers/opencode-numeric-validation-cases.js";
import { bothOnFakeProxy, opencodePrepare } from "./helpers/opencode-runs.js";
import { askStep, opencodeRequest, scriptedTurn } from "./helpers/opencode-scripts.js";

// Differential: answers to OpenCode questions whose `textValidation` has an `inputType` of
// `number` or `integer` with `minimum` and `maximum` (what upstream's runner parses as a number,
// its words and their order after the length and the pattern), and texts of white space;
// upstream's Rust runner and ours through the server's control plane.
const toolchain = serverToolchainForFile();

describe("number-typed OpenCode answers against upstream's runner", { timeout: 120_000 }, () => {
  it("judges each answer in upstream's order and words, then takes one", async () => {
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
      ...command("session.open", "open", { reuse: "same_session" }),
      scriptedTurn("ask", [askStep(opencodeRequest({ input: NUMERIC_QUESTION }))]),
      { op: "event", type: "runtime_request.created" },
      ...NUMERIC_CASES.flatMap(([id, value], index) =>
        command("request.resolve", `case ${index}`, {
          requestId: "$lastRuntimeRequest",
          turnId: "t",
          response: numericAnswer(id, value),
        }),
      ),
      ...command("request.resolve", "the last", {
        requestId: "$lastRuntimeRequest",
        turnId: "t",
        response: numericAnswer("last", "done"),
      }),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ]);
    for (const result of [ours, upstream]) expect(result.failure).toBeNull();
    for (const [index, [id, value, words]] of NUMERIC_CASES.entries())
      expect({ id, value, ...(answer(ours, `case ${index}`) as object) }).toEqual({
        id,
        value,
        ...failed(`OpenCode runtime response failed: ${words}`),
      });
    expect(answer(ours, "the last")).toMatchObject({ result: { status: "delivered" } });
    expectSameAnswers(ours, upstream);
  });
});
