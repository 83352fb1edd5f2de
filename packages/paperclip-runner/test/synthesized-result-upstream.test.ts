import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  type DriverResult,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { command, expectSameAnswers } from "./helpers/command-differential.js";
import { bothOnFakeProxy, opencodePrepare } from "./helpers/opencode-runs.js";
import { scriptedTurn } from "./helpers/opencode-scripts.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Differential: the result upstream's runner proposes at a turn's end when nothing decided one
// (a completion contract bound, no paperclip_finish, no paperclip/runResult), Codex (the fake
// app-server) and OpenCode (the scripted proxy), compared payload for payload.
const toolchain = serverToolchainForFile();

const suffixes = (result: DriverResult) =>
  result.committed
    .filter((event) => event.eventType === "run.result.proposed" || event.eventType === "run.terminal")
    .map((event) => event.payload);

/** An OpenCode turn that ends with `status` and no agent message. */
const ended = (id: string, status: string, count: number): Step[] => [
  scriptedTurn(id, [
    { end: false },
    {
      notify: "turn/completed",
      params: { threadId: "$thread", turnId: "$turn", turn: { id: "$turn", status } },
    },
  ]),
  { op: "event", type: "run.terminal", count },
];

describe("the result synthesized at a turn's end, against upstream's runner", { timeout: 120_000 }, () => {
  it("for Codex: a completed turn done by its agent's message, an interrupted one for review", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("turn.start", "plain", { text: "plain" }),
      { op: "event", type: "run.terminal" },
      ...command("turn.start", "hang", { text: "hang" }),
      { op: "event", type: "turn.started", count: 2 },
      ...command("turn.interrupt", "stop", {}),
      { op: "event", type: "run.terminal", count: 2 },
      ...closeSteps,
    ]);
    expectSameAnswers(ours, upstream);
    expect(suffixes(ours)).toEqual(suffixes(upstream));
    expect(suffixes(ours).map((payload) => payload.reportedWorkDisposition)).toEqual([
      "done",
      "done",
      "needs_review",
      "needs_review",
    ]);
  });

  it("for OpenCode: completed (with and without a message), failed, cancelled and interrupted turns", async () => {
    const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
      ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
      ...command("session.open", "open", { reuse: "same_session" }),
      scriptedTurn("plain", []),
      { op: "event", type: "run.terminal" },
      ...ended("silent", "completed", 2),
      ...ended("failed", "failed", 3),
      ...ended("cancelled", "cancelled", 4),
      ...ended("interrupted", "interrupted", 5),
      ...closeSteps,
    ]);
    for (const result of [ours, upstream]) expect(result.failure).toBeNull();
    expectSameAnswers(ours, upstream);
    expect(suffixes(ours)).toEqual(suffixes(upstream));
  });
});
