import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  eventTypes,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, failed } from "./helpers/command-differential.js";
import { answers, COLOR, REFUSED_ANSWERS, WHY } from "./helpers/question-response-refusals.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Differential (as `codex-command-payload-edges-upstream.test.ts`): a turn's runtime request (the
// fake app-server's "ask": an option question with a custom answer, `color`, and a text question,
// `why`) answered with what the question set does not take, and ended by an interrupt or a cancel
// while it waits for the answer; upstream's Rust runner and ours through the server's control plane.
const toolchain = serverToolchainForFile();

const resolve = (name: string, response?: unknown): Step[] =>
  command("request.resolve", name, {
    requestId: "$lastRuntimeRequest",
    turnId: "t",
    ...(response === undefined ? {} : { response }),
  });

const openSteps = (work: string): Step[] => [
  ...command("run.prepare", "prepare", codexPrepare(work)),
  ...command("session.open", "open", { reuse: "same_session" }),
];

describe("runtime requests against upstream's runner", { timeout: 120_000 }, () => {
  it("fails request.resolve answers the question set does not take in upstream's order and words, the request kept", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...openSteps(work),
      ...command("turn.start", "ask", { text: "ask" }),
      { op: "event", type: "runtime_request.created" },
      ...resolve("no response"),
      ...REFUSED_ANSWERS.flatMap(([name, response]) => resolve(name, response)),
      // Still pending: a custom answer of white space is taken, and the turn goes on with it.
      ...resolve("the answer", answers({ color: { customText: " " }, why: { text: "é".repeat(2000) } })),
      { op: "event", type: "run.terminal" },
      // The option question takes no custom answer: refused first, whatever its value.
      ...command("turn.start", "ask again", { text: "ask-closed" }),
      { op: "event", type: "runtime_request.created", count: 2 },
      ...resolve("a custom answer it does not allow", answers({ color: { customText: "" }, why: WHY })),
      ...resolve("the option", answers({ color: COLOR, why: WHY })),
      { op: "event", type: "run.terminal", count: 2 },
      ...closeSteps,
    ]);
    expect(answer(ours, "no response")).toEqual(failed("request.resolve requires response"));
    for (const [name, , reason] of REFUSED_ANSWERS)
      expect({ name, ...(answer(ours, name) as object) }).toEqual({
        name,
        ...failed(`Codex runtime response failed: ${reason}`),
      });
    expect(answer(ours, "a custom answer it does not allow")).toEqual(
      failed("Codex runtime response failed: color does not allow a custom answer"),
    );
    for (const name of ["the answer", "the option"])
      expect(answer(ours, name)).toMatchObject({ status: "completed", result: { status: "delivered" } });
    expectSameAnswers(ours, upstream);
    // What reached Codex: the custom answer, the text, then the option's label.
    const delivered = ours.providerLog
      .filter((record) => record.kind === "input_answer")
      .map((record) => record.answer);
    expect(delivered).toEqual([
      { answers: { color: { answers: [" "] }, why: { answers: ["é".repeat(2000)] } } },
      { answers: { color: { answers: ["blue"] }, why: { answers: ["calm"] } } },
    ]);
  });

  it("answers request.resolve for the live turn's real request as upstream's: delivered, then settled", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...openSteps(work),
      ...command("turn.start", "ask", { text: "ask" }),
      { op: "event", type: "runtime_request.created" },
      ...resolve("the answer", answers({ color: COLOR, why: WHY })),
      { op: "event", type: "run.terminal" },
      ...resolve("the answer again", answers({ color: COLOR, why: WHY })),
      ...closeSteps,
    ]);
    expect(answer(ours, "the answer")).toMatchObject({
      status: "completed",
      result: { status: "delivered" },
    });
    expectSameAnswers(ours, upstream);
  });

  it.each([
    ["a turn.interrupt, the session opened", "turn.interrupt", {}, true],
    ["a run.cancel, the session opened", "run.cancel", { reason: "user" }, true],
    ["a turn.interrupt, the turn started before session.open", "turn.interrupt", {}, false],
  ] as const)(
    "lets a turn waiting for its answer complete on %s, as upstream's",
    async (_name, type, payload, opened) => {
      const [ours, upstream] = await bothRunners(toolchain(), (work) => [
        ...(opened ? openSteps(work) : command("run.prepare", "prepare", codexPrepare(work))),
        ...command("turn.start", "ask", { text: "ask" }),
        { op: "event", type: "runtime_request.created" },
        ...command(type, "end", payload),
        { op: "event", type: "run.terminal" },
        // Codex's terminal for the interrupt comes once the turn is settled: noticed, ignored.
        { op: "event", type: "provider.notice.recorded" },
        ...command("session.snapshot", "snapshot"),
        ...command("turn.start", "next", { text: "plain" }),
        { op: "event", type: "run.terminal", count: 2 },
        ...closeSteps,
      ]);
      expect(answer(ours, "end")).toMatchObject({ result: { status: "interrupt_requested" } });
      expect(answer(ours, "snapshot")).toMatchObject({ result: { status: "session_open" } });
      expect(answer(ours, "next")).toMatchObject({ result: { status: "accepted" } });
      expectSameAnswers(ours, upstream);
      // The open questions were answered empty before the interrupt, so Codex completed the turn.
      const types = eventTypes(ours.committed);
      const afterRequest = types.slice(types.indexOf("runtime_request.created") + 1);
      expect(afterRequest.slice(0, afterRequest.indexOf("turn.accepted"))).toEqual([
        "item.started",
        "item.delta",
        "item.completed",
        "usage.reported",
        "run.result.proposed",
        "turn.completed",
        "run.terminal",
        "provider.notice.recorded",
      ]);
      expect(types).not.toContain("session.failed");
      const notice = ours.committed.find((event) => event.eventType === "provider.notice.recorded");
      expect(notice?.payload).toMatchObject({ summary: "ignored a notification for a settled Codex turn" });
    },
  );
});
