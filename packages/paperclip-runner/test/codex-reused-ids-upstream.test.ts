import { describe, expect, it } from "vitest";
import {
  closeSteps,
  type DriverResult,
  eventTypes,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import {
  answer,
  command,
  expectSameAnswers,
  expectSessionFailedOnProtocol,
} from "./helpers/command-differential.js";
import { ask, driveHeld, mark, opened, toolCall } from "./helpers/frames-requests.js";
import { answers } from "./helpers/question-response-refusals.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Differential: Codex reusing a JSON-RPC id of an `item/tool/requestUserInput` or `item/tool/call`,
// or a tool call id, while the request under it is still open (the fake app-server's "frames:"
// script writing the requests with ids of the test's choosing); upstream's Rust runner and ours
// through the server's control plane, the tool calls held until the test releases them.
const toolchain = serverToolchainForFile();
const drive = (steps: (work: string) => Step[], runnerBin?: string): Promise<DriverResult> =>
  driveHeld(toolchain(), steps, runnerBin);

const question = (itemId: string, prompt = "Why?") => ({
  threadId: "$THREAD",
  turnId: "$TURN",
  itemId,
  questions: [{ id: "why", header: "Why", question: prompt, isOther: false, isSecret: false }],
});
const call = (callId: string, args: Record<string, unknown> = {}) => ({
  threadId: "$THREAD",
  turnId: "$TURN",
  callId,
  tool: "report_progress",
  arguments: args,
});
/** Ours, then upstream's, on the same steps: both drove them through, and answered every command alike. */
async function driveBothAlike(steps: (work: string) => Step[]): Promise<[DriverResult, DriverResult]> {
  const ours = await drive(steps);
  const upstream = await drive(steps, upstreamRunner());
  for (const result of [ours, upstream]) expect(result.failure).toBeNull();
  expectSameAnswers(ours, upstream);
  return [ours, upstream];
}
/** What Codex was answered (the fake's received messages that are no request). */
const received = (result: DriverResult): unknown[] =>
  result.providerLog
    .filter((record) => record.kind === "received")
    .map((record) => record.message as Record<string, unknown>)
    .filter((message) => message.method === undefined && typeof message.id === "string");

describe("reused request ids against upstream's runner", { timeout: 120_000 }, () => {
  it("takes a question asked again under its open request's id, with the same params, as one request", async () => {
    const steps = (work: string): Step[] => [
      ...opened(work, [ask("dup", question("a")), ask("dup", question("a")), mark]),
      { op: "event", type: "item.started" },
      ...command("request.resolve", "resolve", {
        requestId: "$lastRuntimeRequest",
        turnId: "t",
        response: answers({ why: { text: "because" } }),
      }),
      ...command("turn.interrupt", "stop"),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ];
    const [ours, upstream] = await driveBothAlike(steps);
    expect(answer(ours, "resolve")).toMatchObject({ result: { status: "delivered" } });
    expect(eventTypes(ours.committed).filter((type) => type === "runtime_request.created")).toHaveLength(1);
    expect(received(ours)).toEqual([{ id: "dup", result: { answers: { why: { answers: ["because"] } } } }]);
    expect(received(ours)).toEqual(received(upstream));
  });

  it("takes a tool call sent again under its open request's id, with the same params, as one call", async () => {
    const steps = (work: string): Step[] => [
      ...opened(work, [toolCall("dup", call("c1")), toolCall("dup", call("c1")), mark]),
      { op: "event", type: "item.started" },
      { op: "releaseTools" },
      { op: "commandOfType", type: "semantic_tool.result" },
      ...command("turn.interrupt", "stop"),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ];
    const [ours, upstream] = await driveBothAlike(steps);
    expect(eventTypes(ours.committed).filter((type) => type === "semantic_tool.input")).toHaveLength(1);
    expect(received(ours)).toHaveLength(1);
    expect(received(ours)).toEqual(received(upstream));
  });

  it.each([
    [
      "a question's open id with other params",
      [ask("dup", question("a")), ask("dup", question("b", "Other?"))],
      "Codex reused a runtime request id with different input",
    ],
    [
      "a question's open numeric id with another item id",
      [ask(7, question("a")), ask(7, question("b"))],
      "Codex reused a runtime request id with different input",
    ],
    [
      "a tool call's open id for another call",
      [toolCall("dup", call("c1")), toolCall("dup", call("c2"))],
      "Codex reused a pending JSON-RPC id for another tool call",
    ],
    [
      "a tool call's open id and call id with other arguments",
      [toolCall("dup", call("c1")), toolCall("dup", call("c1", { x: 1 }))],
      "Codex reused a tool call id with different input",
    ],
    [
      "an open call's id under another request, the same input",
      [toolCall("r1", call("c1")), toolCall("r2", call("c1"))],
      "Codex reused a tool call id with different input",
    ],
  ])("%s: upstream's runner exits 1, ours fails the session in its words", async (_name, frames, reason) => {
    const upstream = await drive((work) => [...opened(work, frames), { op: "exit" }], upstreamRunner());
    expect(upstream.exits).toEqual([{ phase: "final", code: 1, signal: null }]);
    expect(upstream.diagnostic).toContain(`Codex provider failed: ${reason}`);
    const ours = await drive((work) => [
      ...opened(work, frames),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ]);
    expectSessionFailedOnProtocol(ours, reason);
  });
});
