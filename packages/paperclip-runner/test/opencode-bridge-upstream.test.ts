import { describe, expect, it } from "vitest";
import {
  type CommittedEvent,
  closeSteps,
  type DriverResult,
  eventTypes,
  firstEvent,
  providerRequests,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, failed } from "./helpers/command-differential.js";
import { identityEvents } from "./helpers/descendant-differential.js";
import { OPENCODE_BOUND_REFUSALS } from "./helpers/opencode-answer-bounds.js";
import { OPENCODE_REFUSED_ANSWERS } from "./helpers/opencode-question-refusals.js";
import { bothOnFakeProxy, opencodePrepare } from "./helpers/opencode-runs.js";
import {
  askStep,
  opencodeRequest,
  proxyAnswers,
  resultStep,
  runResult,
  scriptedTurn,
} from "./helpers/opencode-scripts.js";
import { answers, COLOR, WHY } from "./helpers/question-response-refusals.js";

// Differential: upstream's Rust runner and ours, each driven through the server's control plane
// with the scripted OpenCode proxy (`fake-opencode-proxy.cjs`) as the launch profile's proxy
// script: OpenCode's questions (`paperclip/runtimeRequest`), its proposed results
// (`paperclip/runResult`) and the statuses of its items.
const toolchain = serverToolchainForFile();

const open = (work: string, profile: Record<string, string>): Step[] => [
  ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
  ...command("session.open", "open", { reuse: "same_session" }),
];
const resolve = (name: string, response?: unknown): Step[] =>
  command("request.resolve", name, {
    requestId: "$lastRuntimeRequest",
    turnId: "t",
    ...(response === undefined ? {} : { response }),
  });
const CANCEL = { result: { resolution: { action: "cancel" } } };
const REFUSED = [...OPENCODE_REFUSED_ANSWERS, ...OPENCODE_BOUND_REFUSALS];

/**
 * An event's payload with the runtime request id normalised: each runner digests it under a random
 * scope of its own (compared un-normalised in `runtime-request-id-upstream.test.ts`).
 */
function normalised(event: CommittedEvent): unknown {
  return JSON.parse(
    JSON.stringify(event.payload).replace(/runtime-request-[0-9a-f]{64}/g, "<runtime request>"),
  );
}

function expectRan(results: readonly DriverResult[]): void {
  for (const result of results) {
    expect(result.failure).toBeNull();
    expect(result.invalid).toEqual([]);
  }
}

describe("OpenCode's proxy requests against upstream's runner", { timeout: 120_000 }, () => {
  it("bridges a question, refuses answers in upstream's order and words, and delivers the answer", async () => {
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      scriptedTurn("ask", [askStep()]),
      { op: "event", type: "runtime_request.created" },
      ...resolve("no response"),
      ...REFUSED.flatMap(([name, response]) => resolve(name, response)),
      ...resolve("the answer", answers({ color: COLOR, why: WHY })),
      { op: "event", type: "run.terminal" },
      ...resolve("the answer again", answers({ color: COLOR, why: WHY })),
      ...closeSteps,
    ]);
    expectRan([ours, upstream]);
    expect(answer(ours, "no response")).toEqual(failed("request.resolve requires response"));
    for (const [name, , reason] of REFUSED)
      expect({ name, ...(answer(ours, name) as object) }).toEqual({
        name,
        ...failed(`OpenCode runtime response failed: ${reason}`),
      });
    expect(answer(ours, "the answer")).toMatchObject({
      status: "completed",
      result: { status: "delivered" },
    });
    expect(answer(ours, "the answer again")).toEqual(
      failed("cannot resolve a OpenCode runtime request outside an active turn"),
    );
    expectSameAnswers(ours, upstream);
    for (const type of ["runtime_request.created", "runtime_request.resolved"])
      expect(normalised(firstEvent(ours, type))).toEqual(normalised(firstEvent(upstream, type)));
    // What reached the proxy: the server's response, as a submission.
    const submitted = {
      result: { resolution: { action: "submit", response: answers({ color: COLOR, why: WHY }) } },
    };
    expect(proxyAnswers(ours.providerLog)).toEqual([submitted]);
    expect(proxyAnswers(upstream.providerLog)).toEqual([submitted]);
  });

  it.each([
    ["an interrupt of its turn", [{ op: "queue", type: "turn.interrupt", id: "stop" }], true],
    ["a question naming another turn", [], false],
  ] as const)("cancels a question on %s, as upstream's", async (_name, stop, pending) => {
    const request = pending ? opencodeRequest() : opencodeRequest({ turnId: "turn-9" });
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      scriptedTurn("ask", [askStep(request)]),
      { op: "event", type: pending ? "runtime_request.created" : "provider.notice.recorded" },
      ...stop,
      { op: "event", type: "run.terminal" },
      // An interrupt's cancellation notice comes after the terminal: the drain waits for it, so
      // whether it was acknowledged by then is not a race between the runner and the driver.
      ...(pending ? [{ op: "event", type: "provider.notice.recorded" } as const] : []),
      ...closeSteps,
    ]);
    expectRan([ours, upstream]);
    expectSameAnswers(ours, upstream);
    expect(proxyAnswers(ours.providerLog)).toEqual([CANCEL]);
    expect(proxyAnswers(upstream.providerLog)).toEqual([CANCEL]);
    if (!pending)
      expect(firstEvent(ours, "provider.notice.recorded").payload).toEqual(
        firstEvent(upstream, "provider.notice.recorded").payload,
      );
  });

  it("commits OpenCode's result at once, an identical repeat once, and synthesizes none at the turn's end", async () => {
    const blocked = runResult({
      reportedWorkDisposition: "blocked",
      blocker: {
        reasonCode: "needs_access",
        owner: { kind: "user", name: "board" },
        unblockAction: "grant it",
        scope: "current_track",
      },
      completionClaim: {
        contractRevision: "rev-1",
        objectiveSatisfied: false,
        criteria: [{ criterionId: "criterion-1", status: "not_satisfied", evidenceRefs: [] }],
        remainingWork: [],
      },
    });
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      scriptedTurn("done", [resultStep(runResult()), resultStep(runResult())]),
      { op: "event", type: "run.terminal" },
      scriptedTurn("blocked", [resultStep(blocked)]),
      { op: "event", type: "run.terminal", count: 2 },
      ...closeSteps,
    ]);
    expectRan([ours, upstream]);
    expectSameAnswers(ours, upstream);
    const of = (result: DriverResult, type: string) =>
      result.committed.filter((event) => event.eventType === type).map((event) => event.payload);
    expect(of(ours, "run.result.proposed")).toEqual([runResult(), blocked]);
    for (const type of ["run.result.proposed", "run.terminal"])
      expect(of(ours, type)).toEqual(of(upstream, type));
    // The bound contract went to the proxy with the thread (its task envelope claims it).
    const threadStart = (result: DriverResult) =>
      providerRequests(result, "thread/start")[0]?.completionContract;
    expect(threadStart(ours)).toEqual({ revision: "rev-1", criterionIds: ["criterion-1"] });
    expect(threadStart(ours)).toEqual(threadStart(upstream));
    // Committed as it came, before the turn's own items.
    const types = eventTypes(ours.committed);
    expect(types.indexOf("run.result.proposed")).toBeLessThan(types.indexOf("item.started"));
  });

  it("fails the turn on a result naming another turn, as upstream's", async () => {
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      scriptedTurn("elsewhere", [resultStep(runResult(), { turnId: "turn-9" })]),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ]);
    expectRan([ours, upstream]);
    expectSameAnswers(ours, upstream);
    expect(identityEvents(ours)).toEqual(identityEvents(upstream));
    expect(identityEvents(ours)[0]).toMatchObject({
      type: "harness.diagnostic",
      payload: { code: "turn_binding_mismatch", classification: "invalid_authoritative" },
    });
    const proposed = (result: DriverResult) =>
      result.committed
        .filter((event) => event.eventType === "run.result.proposed")
        .map((event) => event.payload);
    expect(proposed(ours)).toEqual(proposed(upstream));
  });

  it("maps item statuses as upstream's, on start and on completion", async () => {
    const statuses = [
      "failed",
      "declined",
      "error",
      "cancelled",
      "canceled",
      "aborted",
      "interrupted",
      "inProgress",
    ];
    const script = ["fileChange", "commandExecution", "mcpToolCall"].flatMap((type) =>
      [...statuses, undefined].flatMap((status, index) => {
        const item = { type, id: `${type}-${index}`, status, command: "ls", server: "s", tool: "t" };
        return ["item/started", "item/completed"].map((notify) => ({
          notify,
          params: { threadId: "$thread", turnId: "$turn", item },
        }));
      }),
    );
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      scriptedTurn("items", script),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ]);
    expectRan([ours, upstream]);
    expectSameAnswers(ours, upstream);
    const seen = (result: DriverResult) =>
      result.committed
        .filter((event) => /^(item|tool\.execution)\.(started|completed)$/.test(event.eventType))
        .map((event) => [
          event.eventType,
          event.payload.itemId ?? event.payload.executionId,
          event.payload.status,
        ]);
    expect(seen(ours)).toEqual(seen(upstream));
    expect(seen(ours)).toContainEqual(["item.completed", "fileChange-1", "completed"]);
  });

  it("resumes OpenCode's thread with its tools and the bound contract, as upstream's", async () => {
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...open(work, profile),
      scriptedTurn("first", []),
      { op: "event", type: "run.terminal" },
      { op: "sigkill" },
      { op: "restart" },
      scriptedTurn("second", []),
      { op: "providerReceived", method: "thread/resume" },
      { op: "sigkill" },
    ]);
    expectRan([ours, upstream]);
    const resumed = (result: DriverResult) => {
      const {
        cwd: _cwd,
        runtimeWorkspaceRoots: _roots,
        threadId: _thread,
        ...rest
      } = providerRequests(result, "thread/resume")[0] ?? {};
      return rest;
    };
    expect(resumed(ours)).toMatchObject({
      completionContract: { revision: "rev-1", criterionIds: ["criterion-1"] },
      dynamicTools: [expect.objectContaining({ name: "report_progress" })],
    });
    expect(resumed(ours)).toEqual(resumed(upstream));
  });
});
