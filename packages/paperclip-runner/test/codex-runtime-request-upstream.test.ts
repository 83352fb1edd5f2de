import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  eventTypes,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, failed } from "./helpers/command-differential.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Differential (as `codex-command-payload-edges-upstream.test.ts`): a turn's runtime request (the
// fake app-server's "ask": an option question with a custom answer, `color`, and a text question,
// `why`) answered with what the question set does not take, and ended by an interrupt or a cancel
// while it waits for the answer; upstream's Rust runner and ours through the server's control plane.
const toolchain = serverToolchainForFile();

const SCHEMA = "paperclip.question_response.v1";
const COLOR = { selectedOptionIds: ["option-2"] };
const WHY = { text: "calm" };
const answers = (value: unknown) => ({ schema: SCHEMA, answers: value });

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

/** Each refused answer and upstream's words for it (after `Codex runtime response failed: `); the request stays pending. */
const REFUSED: readonly [string, unknown, string][] = [
  ["null", null, "runtime response must be an object"],
  ["an array", [], "runtime response must be an object"],
  [
    "an unknown field",
    { schema: "x", answers: {}, extra: 1 },
    "runtime response contains an unknown top-level field",
  ],
  [
    "another schema",
    { schema: "x", answers: { color: COLOR, why: WHY } },
    "runtime response requires paperclip.question_response.v1",
  ],
  ["no answers", { schema: SCHEMA }, "runtime response answers are required"],
  ["answers a list", { schema: SCHEMA, answers: [] }, "runtime response answers are required"],
  ["a missing answer before an unknown id", answers({ zzz: WHY }), "missing answer for color"],
  ["a missing text answer", answers({ color: COLOR }), "missing answer for why"],
  ["an answer not an object", answers({ color: "red", why: WHY }), "answer for color must be an object"],
  [
    "an unknown answer field",
    answers({ color: { ...COLOR, extra: 1 }, why: WHY }),
    "answer for color contains an unknown field",
  ],
  ["no option", answers({ color: {}, why: WHY }), "color requires one selected option"],
  [
    "two options",
    answers({ color: { selectedOptionIds: ["option-1", "option-2"] }, why: WHY }),
    "color requires one selected option",
  ],
  [
    "an option id not a string",
    answers({ color: { selectedOptionIds: [5] }, why: WHY }),
    "selected option id is invalid",
  ],
  [
    "an unknown option",
    answers({ color: { selectedOptionIds: ["blue"] }, why: WHY }),
    "selected option is not available",
  ],
  [
    "an option and a custom answer",
    answers({ color: { ...COLOR, customText: "green" }, why: WHY }),
    "color must contain one selected option or one custom answer",
  ],
  [
    "a text for the option question",
    answers({ color: { text: "red" }, why: WHY }),
    "color must contain one selected option or one custom answer",
  ],
  [
    "an empty custom answer",
    answers({ color: { customText: "" }, why: WHY }),
    "color custom answer must be non-empty and bounded",
  ],
  [
    "a custom answer over 4000 bytes",
    answers({ color: { customText: "é".repeat(2001) }, why: WHY }),
    "color custom answer must be non-empty and bounded",
  ],
  ["an empty text", answers({ color: COLOR, why: { text: "" } }), "why requires text"],
  [
    "a text over 4000 bytes",
    answers({ color: COLOR, why: { text: `${"é".repeat(2000)}x` } }),
    "why requires text",
  ],
  [
    "a text with an option field",
    answers({ color: COLOR, why: { text: "x", selectedOptionIds: null } }),
    "why text answer cannot contain select or custom fields",
  ],
  [
    "an unknown question",
    answers({ color: COLOR, why: WHY, zzz: WHY }),
    "runtime response contains an unknown question id",
  ],
];

describe("runtime requests against upstream's runner", { timeout: 120_000 }, () => {
  it("fails request.resolve answers the question set does not take in upstream's order and words, the request kept", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...openSteps(work),
      ...command("turn.start", "ask", { text: "ask" }),
      { op: "event", type: "runtime_request.created" },
      ...resolve("no response"),
      ...REFUSED.flatMap(([name, response]) => resolve(name, response)),
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
    for (const [name, , reason] of REFUSED)
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
