import { describe, expect, it } from "vitest";
import { closeSteps, type DriverResult, type Step, serverToolchainForFile } from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers } from "./helpers/command-differential.js";
import { bothOnFakeProxy, opencodePrepare } from "./helpers/opencode-runs.js";
import { askStep, opencodeRequest, proxyAnswers, scriptedTurn } from "./helpers/opencode-scripts.js";
import {
  VALIDATED_QUESTION,
  VALIDATION_ANSWERS,
  VALIDATION_REFUSALS,
} from "./helpers/opencode-text-validation-cases.js";
import { answers, COLOR, WHY } from "./helpers/question-response-refusals.js";

// Differential: OpenCode's proxy asking the same question twice, more questions than upstream's
// runner keeps open (128; the scripted proxy asking without waiting for each answer), and a
// question set with `textValidation`; upstream's Rust runner and ours through the server's
// control plane.
const toolchain = serverToolchainForFile();

const open = (work: string, profile: Record<string, string>): Step[] => [
  ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
  ...command("session.open", "open", { reuse: "same_session" }),
];
/** The turn asks each request at once (not waiting for the answers), then waits to be stopped. */
const asking = (requests: readonly Record<string, unknown>[]): Step =>
  scriptedTurn("ask", [...requests.map((request) => ({ ...askStep(request), wait: false })), { end: false }]);
const stop: Step[] = [
  { op: "queue", type: "turn.interrupt", id: "stop" },
  { op: "event", type: "run.terminal" },
  ...closeSteps,
];
const payloads = (result: DriverResult, type: string) =>
  result.committed.filter((event) => event.eventType === type).map((event) => event.payload);
const CANCEL = { result: { resolution: { action: "cancel" } } };

describe("OpenCode's repeated and surplus questions against upstream's runner", { timeout: 120_000 }, () => {
  it("takes the same question asked twice as two requests, each answered on its own", async () => {
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      asking([opencodeRequest(), opencodeRequest()]),
      { op: "event", type: "runtime_request.created", count: 2 },
      ...command("request.resolve", "the second", {
        requestId: "$lastRuntimeRequest",
        turnId: "t",
        response: answers({ color: COLOR, why: WHY }),
      }),
      ...stop,
    ]);
    for (const result of [ours, upstream]) {
      expect(result.failure).toBeNull();
      const ids = payloads(result, "runtime_request.created").map(
        (payload) => (payload.request as { requestId: string }).requestId,
      );
      expect(new Set(ids).size).toBe(2);
      // The second request answered (its own JSON-RPC request), the first cancelled with the turn.
      expect(proxyAnswers(result.providerLog)).toEqual([
        { result: { resolution: { action: "submit", response: answers({ color: COLOR, why: WHY }) } } },
        CANCEL,
      ]);
    }
    expect(answer(ours, "the second")).toMatchObject({ result: { status: "delivered" } });
    expectSameAnswers(ours, upstream);
  });

  it("refuses the questions past 128 open ones with upstream's error and warning", async () => {
    const requests = Array.from({ length: 130 }, (_, index) =>
      opencodeRequest({ requestId: `que_${index}`, itemId: `que_${index}` }),
    );
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      asking(requests),
      { op: "event", type: "runtime_request.created", count: 128 },
      { op: "event", type: "provider.notice.recorded", count: 2 },
      ...stop,
    ]);
    for (const result of [ours, upstream]) expect(result.failure).toBeNull();
    expectSameAnswers(ours, upstream);
    expect(payloads(ours, "runtime_request.created")).toHaveLength(128);
    const refused = {
      error: {
        code: -32000,
        message: "Paperclip rejected this runtime request because the pending input capacity was reached",
      },
    };
    expect(proxyAnswers(ours.providerLog)).toEqual([refused, refused, ...Array(128).fill(CANCEL)]);
    expect(proxyAnswers(ours.providerLog)).toEqual(proxyAnswers(upstream.providerLog));
    expect(payloads(ours, "provider.notice.recorded")).toEqual(
      payloads(upstream, "provider.notice.recorded"),
    );
    expect(payloads(ours, "provider.notice.recorded")[0]).toMatchObject({
      severity: "warning",
      summary: "rejected a Codex runtime request at the bounded pending-input limit",
    });
  });

  it("checks answers against a question's textValidation in upstream's order and words", async () => {
    const [accepted, response] = VALIDATION_ANSWERS[0] as [string, unknown];
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      scriptedTurn("ask", [askStep(opencodeRequest({ input: VALIDATED_QUESTION }))]),
      { op: "event", type: "runtime_request.created" },
      ...[...VALIDATION_REFUSALS, [accepted, response] as const].flatMap(([name, answered]) =>
        command("request.resolve", name, {
          requestId: "$lastRuntimeRequest",
          turnId: "t",
          response: answered,
        }),
      ),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ]);
    for (const result of [ours, upstream]) expect(result.failure).toBeNull();
    for (const [name, , reason] of VALIDATION_REFUSALS)
      expect({ name, ...(answer(ours, name) as object) }).toEqual({
        name,
        status: "failed",
        result: { code: "command_execution_failed", message: `OpenCode runtime response failed: ${reason}` },
      });
    expect(answer(ours, accepted)).toMatchObject({ result: { status: "delivered" } });
    expectSameAnswers(ours, upstream);
  });
});
