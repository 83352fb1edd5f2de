import { expect } from "vitest";
import { codexPrepare, type DriverResult, type ServerToolchain, type Step } from "./codex-durable.js";
import { command, expectSameAnswers } from "./command-differential.js";
import { bothRunners } from "./startup-release-differential.js";

// What `codex-descendants-upstream.test.ts` shares: a turn of scripted Codex messages (the fake
// app-server's "frames:" script) through both runners, and what the two are compared on.

/** A scripted message of the fake app-server (`fake-codex-frames.mjs`). */
export type Frame = Record<string, unknown>;

export const notify = (method: string, params: Record<string, unknown>): Frame => ({
  notify: method,
  params,
});
export const request = (method: string, params: Record<string, unknown>): Frame => ({
  request: method,
  params,
});
export const threadStarted = (thread: Record<string, unknown>): Frame => notify("thread/started", { thread });
export const itemStarted = (threadId: string, turnId: unknown): Frame =>
  notify("item/started", { threadId, turnId, item: { type: "agentMessage", id: "item-x", text: "" } });
export const collabCompleted = (item: Record<string, unknown>): Frame =>
  notify("item/completed", {
    threadId: "$THREAD",
    turnId: "$TURN",
    item: { type: "collabAgentToolCall", id: "collab-1", tool: "spawnAgent", status: "completed", ...item },
  });
export const toolCall = (threadId: string, turnId: string): Frame =>
  request("item/tool/call", { threadId, turnId, callId: "call-x", tool: "report_progress", arguments: {} });
export const question = (threadId: string, turnId: string): Frame =>
  request("item/tool/requestUserInput", {
    threadId,
    turnId,
    itemId: "ask-x",
    questions: [{ id: "why", header: "Why", question: "Why?", isOther: false, isSecret: false }],
  });

/** The text of a turn that plays `frames` (the fake app-server's "frames:" script). */
export const turnText = (frames: readonly Frame[]): string => `frames:${JSON.stringify(frames)}`;

/** One turn playing `frames`, then (when it left the session open) a plain turn; the state file read at the end. */
export function framesTurn(frames: readonly Frame[], next: boolean): (work: string) => Step[] {
  return (work) => [
    ...command("run.prepare", "prepare", codexPrepare(work)),
    ...command("session.open", "open", { reuse: "same_session" }),
    ...command("turn.start", "frames", { text: turnText(frames) }),
    { op: "event", type: "run.terminal" },
    ...command("session.snapshot", "snapshot"),
    ...(next
      ? [
          ...command("turn.start", "next", { text: "plain" }),
          { op: "event" as const, type: "run.terminal", count: 2 },
        ]
      : []),
    { op: "queue", type: "runner.drain", id: "drain" },
    { op: "command", id: "drain" },
    { op: "snapshotFile", path: "runner/codex-provider-state.json" },
    { op: "queue", type: "runner.suspend", id: "suspend" },
    { op: "exit" },
  ];
}

/** The events the identity rules produce (diagnostics, notices, failed turns), the opened thread's id normalised. */
export function identityEvents(result: DriverResult): unknown[] {
  // The fake app-server names its threads thread-<pid>-<ms>.
  const normalise = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).replace(/thread-\d+-\d+/g, "<root>"));
  return result.committed
    .filter(
      (event) =>
        (event.eventType === "harness.diagnostic" && event.payload.code !== "provider_startup_ownership") ||
        event.eventType === "provider.notice.recorded" ||
        event.eventType === "turn.failed",
    )
    .map((event) => ({ type: event.eventType, priority: event.priority, payload: normalise(event.payload) }));
}

/** The saved lifecycle and descendants. */
export function savedIdentity(result: DriverResult): unknown {
  const text = result.files.at(-1)?.text ?? null;
  if (text === null) return null;
  const { lifecycle, descendantThreadIds } = JSON.parse(text) as Record<string, unknown>;
  return { lifecycle, descendantThreadIds };
}

/** What the fake app-server was answered to its scripted requests. */
export const framesAnswers = (result: DriverResult): unknown[] =>
  result.providerLog.filter((record) => record.kind === "frames_answer").map((record) => record.answer);

/** Both runners on the frames; every answer, event type, identity event, saved identity and request answer the same. */
export async function expectSameAsUpstream(
  tools: ServerToolchain,
  frames: readonly Frame[],
  next: boolean,
): Promise<DriverResult> {
  const [ours, upstream] = await bothRunners(tools, framesTurn(frames, next));
  expectSameAnswers(ours, upstream);
  expect(identityEvents(ours)).toEqual(identityEvents(upstream));
  expect(savedIdentity(ours)).toEqual(savedIdentity(upstream));
  expect(framesAnswers(ours)).toEqual(framesAnswers(upstream));
  return ours;
}
