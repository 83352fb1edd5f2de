import { describe, expect, it } from "vitest";
import {
  BROKEN_ARGUMENTS,
  BYTE_BOUNDARY_TEXT,
  CLOSED_DELTAS,
  CONTROL_TEXT,
  INTERRUPTED_DELTAS,
  LARGE_BODY,
  // @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
} from "../driver/further-scenario.mjs";
import { withMessagesBeforeToolCallStart } from "../src/codex-item-order.js";
import { withResumeNotesAfterAcceptance } from "../src/codex-resume-notes.js";
import type { CommittedEvent, ScenarioOutcome } from "../src/run-scenario.js";
import {
  expectSameCommandResults,
  expectSameStreams,
  type SideBySide,
  sideBySideBeforeAll,
} from "../src/side-by-side.js";

const TRUNCATION_SUFFIX = "…[truncated]";
const COMPLETED_STEPS = [
  "usage-1",
  "usage-2",
  "two-messages",
  "broken-arguments",
  "large-arguments",
  "byte-boundary",
  "control-characters",
  "after-error",
  "empty-while-active",
  "after-kill",
];
const EMPTY_TEXT_REFUSAL = "Codex turn/start failed: Codex turn text is empty or exceeds the 1 MiB limit";

/**
 * Strings as upstream's runner hands them on (measured): within 4096 UTF-8 bytes, never half a
 * character, `…[truncated]` after. `LARGE_BODY`: "large: ", 194 units of 19 UTF-16 code units
 * (21 bytes), then 15 ASCII characters fill byte 4096; `BYTE_BOUNDARY_TEXT`: its 2048th
 * two-byte character would end on byte 4097.
 */
const LARGE_BODY_HANDED_ON = `${LARGE_BODY.slice(0, 7 + 194 * 19 + 15)}${TRUNCATION_SUFFIX}`;
const BYTE_BOUNDARY_HANDED_ON = `${BYTE_BOUNDARY_TEXT.slice(0, 2048)}${TRUNCATION_SUFFIX}`;

const payloads = (events: readonly CommittedEvent[], type: string) =>
  events.filter((event) => event.eventType === type).map((event) => event.payload as Record<string, unknown>);

/** Every step went as the server expects, whichever runner ran it. */
function expectFurtherWorked(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of COMPLETED_STEPS) expect(outcome.steps.get(step)?.status, step).toBe("completed");
  // The 60 KB instructions reached the model.
  expect(outcome.steps.get("instructions")).toMatchObject({ reachedModel: true });
  expect(outcome.steps.get("snapshot-after-usage")).toMatchObject({ sameThread: true });
  for (const step of ["two-messages", "broken-arguments", "large-arguments", "control-characters"]) {
    expect(outcome.steps.get(step), step).toMatchObject({ modelRequests: 2 });
  }
  // The tool call was answered, then the model's next request failed.
  expect(outcome.steps.get("error-after-tool")).toMatchObject({ status: "failed", modelRequests: 2 });
  expect(outcome.steps.get("interrupt-mid-stream")?.status).toBe("interrupted");
  // An input without text is no turn; one of white space only is.
  expect(outcome.steps.get("empty-input")).toMatchObject({ accepted: false, modelRequests: 0 });
  expect(outcome.steps.get("empty-input")?.refusal).toContain(EMPTY_TEXT_REFUSAL);
  expect(outcome.steps.get("blank-input")).toMatchObject({ accepted: true, status: "completed" });
  // With a turn active, the active turn is the refusal, not the empty text.
  expect(outcome.steps.get("empty-while-active:second")).toMatchObject({ accepted: false });
  expect(outcome.steps.get("empty-while-active:second")?.refusal).toContain(
    "Codex already has an active provider turn",
  );
  expect(outcome.steps.get("killed-before-first-byte")).toMatchObject({
    sameThread: true,
    statuses: ["failed"],
    oldProviderAlive: false,
  });
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

/** What the server's handler got and what the model was told of each call. */
function expectToolCalls(outcome: ScenarioOutcome): void {
  expect(outcome.toolCalls.map((call) => call.arguments)).toEqual([
    { body: "between notes" },
    { body: LARGE_BODY_HANDED_ON },
    { body: BYTE_BOUNDARY_HANDED_ON },
    { body: CONTROL_TEXT },
    { body: "before the error" },
  ]);
  // Arguments that are not JSON: Codex answers the model itself, the server never sees the call.
  expect(Object.values(outcome.modelToolOutputs)).toContain(
    `failed to parse function arguments: EOF while parsing a string at line 1 column ${BROKEN_ARGUMENTS.length}`,
  );
  expect(
    payloads(outcome.events, "semantic_tool.input").map(
      (payload) => (payload.semantic_tool as { input: { body: string } }).input.body,
    ),
  ).toEqual(outcome.toolCalls.map((call) => (call.arguments as { body: string }).body));
}

/** Usage accumulates across turns; text with control characters and a cut answer come through as streamed. */
function expectStreamed(outcome: ScenarioOutcome): void {
  const inputs = payloads(outcome.events, "usage.reported").map(
    (payload) => (payload.cumulative as { inputTokens: number }).inputTokens,
  );
  expect(inputs.slice(0, 4)).toEqual([1_000, 3_000, 6_000, 9_100]);
  const answers = payloads(outcome.events, "item.completed")
    .filter((payload) => payload.kind === "agentMessage")
    .map((payload) => payload.text);
  expect(answers.slice(0, 5)).toEqual(["one", "two", "first note", "second note", "after the notes"]);
  expect(answers).toContain(CONTROL_TEXT);
  expect(answers).toContain(BYTE_BOUNDARY_HANDED_ON);
  const deltas = payloads(outcome.events, "item.delta").map((payload) => payload.text as string);
  expect(deltas.join("")).toBe(`${CONTROL_TEXT}${INTERRUPTED_DELTAS.join("")}${CLOSED_DELTAS.join("")}`);
  // The interrupted answer: its deltas, then the turn's end, no completed item.
  const types = outcome.events.map((event) => event.eventType);
  const interrupted = types.indexOf("turn.interrupted");
  expect(types.slice(interrupted - INTERRUPTED_DELTAS.length - 2, interrupted + 1)).toEqual([
    "item.started",
    ...INTERRUPTED_DELTAS.map(() => "item.delta"),
    "usage.reported",
    "turn.interrupted",
  ]);
}

/** The lost turn failed on the resumed thread; Codex's resume notifications follow the next turn's acceptance. */
function expectResumedAfterKill(outcome: ScenarioOutcome): void {
  const types = outcome.events.map((event) => event.eventType);
  const reconciled = types.lastIndexOf("session.reconciled");
  expect(types.slice(reconciled - 1, reconciled + 5)).toEqual([
    "session.resumed",
    "session.reconciled",
    "turn.failed",
    "turn.accepted",
    "harness.diagnostic",
    "session.goal.cleared",
  ]);
  expect(outcome.events[reconciled + 1]?.payload).toMatchObject({ providerTerminalObserved: false });
  expect(outcome.events[reconciled + 3]?.payload).toMatchObject({ code: "codex_resume_usage_snapshot" });
  expect(types.at(-CLOSED_DELTAS.length - 7)).toBe("turn.completed");
}

/** The close stopped the turn whose answer was streaming (`turn.stop`, drain, suspend); its deltas were the last events. */
function expectClosedMidStream(outcome: ScenarioOutcome): void {
  expect(outcome.steps.has("streaming-at-close")).toBe(true);
  const tail = outcome.commands.slice(-3);
  expect(tail.map((command) => [command.type, command.status])).toEqual([
    ["turn.stop", "completed"],
    ["runner.drain", "completed"],
    ["runner.suspend", "completed"],
  ]);
  expect(tail[0]?.result).toMatchObject({
    status: "stopped",
    reason: "turn.stop",
    providerExitConfirmed: true,
  });
  expect(tail[1]?.result).toMatchObject({ retainedEventsDrained: true });
  expect(outcome.events.slice(-CLOSED_DELTAS.length - 1).map((event) => event.eventType)).toEqual([
    "item.started",
    ...CLOSED_DELTAS.map(() => "item.delta"),
  ]);
}

describe("long instructions, usage then a snapshot, two messages and a call, broken and large call arguments, control characters, an error after a tool call, an interrupt mid-stream, empty inputs, a SIGKILL before the first byte, a close mid-stream, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const ran = sideBySideBeforeAll("further");
  // Upstream's runner commits Codex's resume notifications as they arrive, before or after the
  // next turn's acceptance (src/codex-resume-notes.ts); ours always after (checked as it ran).
  // Codex itself sends a message and a tool call of one response in either order
  // (src/codex-item-order.ts).
  const canonical = (outcome: ScenarioOutcome) =>
    withMessagesBeforeToolCallStart(withResumeNotesAfterAcceptance(outcome));
  const outcomes = (): SideBySide => ({ upstream: canonical(ran().upstream), ours: canonical(ran().ours) });

  it("upstream's runner takes every step, the turn after the SIGKILL included (the reference)", () => {
    const { upstream } = outcomes();
    expectFurtherWorked(upstream);
    expectToolCalls(upstream);
    expectStreamed(upstream);
    expectResumedAfterKill(upstream);
    expectClosedMidStream(upstream);
  });

  it("ours takes the same steps and commits the same normalised stream, the turn after the SIGKILL included", () => {
    const { upstream, ours } = outcomes();
    expectFurtherWorked(ours);
    expectToolCalls(ours);
    expectStreamed(ours);
    expectResumedAfterKill(ours);
    expectResumedAfterKill(ran().ours);
    expectClosedMidStream(ours);
    expect(ours.modelToolOutputs).toEqual(upstream.modelToolOutputs);
    // Codex's error notice: its summary is the one listed difference (by pattern).
    expectSameStreams(outcomes());
  });

  it("ours answers every command the server queued (the refused empty turn.start and the close mid-stream among them) as upstream's, but for the listed differences", () => {
    const { upstream, ours } = outcomes();
    const refused = (outcome: ScenarioOutcome) =>
      outcome.commands.filter((command) => command.type === "turn.start" && command.status !== "completed");
    expect(refused(ours)).toEqual([
      {
        type: "turn.start",
        status: "failed",
        result: { code: "command_execution_failed", message: EMPTY_TEXT_REFUSAL },
      },
      {
        type: "turn.start",
        status: "failed",
        result: { code: "command_execution_failed", message: "Codex already has an active provider turn" },
      },
    ]);
    expect(refused(ours)).toEqual(refused(upstream));
    expectSameCommandResults(outcomes());
  });
});
