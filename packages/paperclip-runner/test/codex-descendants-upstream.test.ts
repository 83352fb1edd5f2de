import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  eventTypes,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { command, expectSameAnswers } from "./helpers/command-differential.js";
import {
  collabCompleted,
  expectSameAsUpstream,
  type Frame,
  framesAnswers,
  framesTurn,
  identityEvents,
  itemStarted,
  notify,
  question,
  savedIdentity,
  threadStarted,
  toolCall,
  turnText,
} from "./helpers/descendant-differential.js";
import { bothRunners, driveThrough } from "./helpers/startup-release-differential.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Differential: a turn's scripted Codex messages naming sub-agent (descendant) threads, other
// threads and other turns, through upstream's Rust runner and ours (the server's control plane,
// the fake app-server's "frames:" script); compared on every answer, the event types, the
// identity events' payloads and priorities, the saved descendants and what Codex was answered.
const toolchain = serverToolchainForFile();

/** The last identity event of a turn failed on a thread the session cannot own. */
const FAILED_TURN = {
  type: "turn.failed",
  payload: { status: "failed", recoverable: false, error: { classification: "invalid_authoritative" } },
};

const usage = { total: { inputTokens: 1, outputTokens: 1 }, last: { inputTokens: 1, outputTokens: 1 } };

describe("Codex sub-agent threads against upstream's runner", { timeout: 120_000 }, () => {
  it("reports each descendant's progress as a diagnostic and saves the descendants, the turn going on", async () => {
    const ours = await expectSameAsUpstream(
      toolchain(),
      [
        threadStarted({
          id: "child-1",
          source: { subAgent: { thread_spawn: { parent_thread_id: "$THREAD" } } },
        }),
        threadStarted({
          id: "child-2",
          source: { subAgent: { threadSpawn: { parentThreadId: "child-1" } } },
        }),
        threadStarted({
          id: "child-3",
          source: { subagent: { thread_spawn: { parent_thread_id: "$THREAD" } } },
        }),
        threadStarted({ id: "child-4", parentThreadId: "child-3" }),
        collabCompleted({ senderThreadId: "$THREAD", receiverThreadIds: ["child-5"] }),
        // Only a completed spawn teaches descendants: not one that failed, nor a message sent to a thread.
        collabCompleted({ status: "failed", senderThreadId: "other-9", receiverThreadIds: ["child-6"] }),
        collabCompleted({ tool: "sendInput", senderThreadId: "$THREAD", receiverThreadIds: ["$THREAD"] }),
        notify("turn/started", { threadId: "child-5", turn: { id: "child-turn", status: "inProgress" } }),
        itemStarted("child-2", "child-turn"),
        notify("item/agentMessage/delta", {
          threadId: "child-4",
          turnId: "child-turn",
          itemId: "i",
          delta: "hi",
        }),
        notify("thread/tokenUsage/updated", { threadId: "child-1", turnId: "child-turn", tokenUsage: usage }),
        notify("warning", { threadId: "child-3", message: "a child's warning" }),
        notify("turn/completed", { threadId: "child-5", turn: { id: "child-turn", status: "completed" } }),
      ],
      true,
    );
    expect(savedIdentity(ours)).toEqual({
      lifecycle: "session_open",
      descendantThreadIds: ["child-1", "child-2", "child-3", "child-4", "child-5"],
    });
    const diagnostics = identityEvents(ours);
    expect(diagnostics).toHaveLength(10);
    expect(diagnostics[0]).toEqual({
      type: "harness.diagnostic",
      priority: 1,
      payload: {
        code: "provider_notification_identity",
        classification: "descendant",
        method: "thread/started",
        expectedThreadId: "<root>",
        expectedTurnId: "turn-1",
        receivedThreadId: "child-1",
        receivedTurnId: null,
      },
    });
  });

  it("remembers the descendants across runs: the next run's resumed thread reports a child's progress", async () => {
    const steps = (work: string): Step[] => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("turn.start", "spawn", {
        text: turnText([threadStarted({ id: "child-1", parentThreadId: "$THREAD" })]),
      }),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
      // The next run: the server's resume probe, then a turn in which the child speaks.
      { op: "restart" },
      ...command("runner.drain", "resume probe"),
      ...command("turn.start", "child speaks", {
        text: turnText([notify("warning", { threadId: "child-1", message: "hi" })]),
      }),
      { op: "event", type: "run.terminal", count: 2 },
      ...command("runner.drain", "drain again"),
      { op: "snapshotFile", path: "runner/codex-provider-state.json" },
      { op: "queue", type: "runner.suspend", id: "suspend-again" },
      { op: "exit" },
    ];
    const [ours, upstream] = await bothRunners(toolchain(), steps);
    expectSameAnswers(ours, upstream);
    expect(identityEvents(ours)).toEqual(identityEvents(upstream));
    expect(savedIdentity(ours)).toEqual({ lifecycle: "session_open", descendantThreadIds: ["child-1"] });
    expect(savedIdentity(upstream)).toEqual(savedIdentity(ours));
    expect(identityEvents(ours).at(-1)).toMatchObject({
      payload: { classification: "descendant", method: "warning", receivedThreadId: "child-1" },
    });
  });

  it("notices another thread's information and ignores it, the turn going on", async () => {
    const other = { threadId: "other-1", message: "elsewhere" };
    const ours = await expectSameAsUpstream(
      toolchain(),
      [
        threadStarted({ id: "other-1" }),
        threadStarted({ id: "other-2", parentThreadId: "other-1" }),
        ...[
          "thread/closed",
          "thread/status/changed",
          "warning",
          "deprecationNotice",
          "configWarning",
          "guardianWarning",
        ].map((method) => notify(method, other)),
        notify("thread/tokenUsage/updated", { ...other, turnId: "other-turn", tokenUsage: usage }),
      ],
      true,
    );
    expect(
      identityEvents(ours).map((event) => (event as { payload: { summary: string } }).payload.summary),
    ).toEqual(Array(9).fill("ignored unrelated provider information"));
  });

  it.each<[string, Frame[]]>([
    ["an item of a thread never started", [itemStarted("other-1", "$TURN")]],
    [
      "an error of a thread started unrelated",
      [threadStarted({ id: "other-1" }), notify("error", { threadId: "other-1" })],
    ],
    ["a thread/compacted of another thread", [notify("thread/compacted", { threadId: "other-1" })]],
    ["a malformed thread id", [itemStarted(42 as unknown as string, "$TURN")]],
    ["an empty thread id", [notify("warning", { threadId: "", message: "m" })]],
    ["a thread id past 240 bytes", [threadStarted({ id: "é".repeat(121), parentThreadId: "$THREAD" })]],
    [
      "a thread started under two parents",
      [
        threadStarted({
          id: "child-1",
          parentThreadId: "$THREAD",
          source: { subAgent: { thread_spawn: { parent_thread_id: "x" } } },
        }),
      ],
    ],
    [
      "a descendant's empty turn id",
      [threadStarted({ id: "child-1", parentThreadId: "$THREAD" }), itemStarted("child-1", "")],
    ],
    [
      "a child's child spawned through the child's collab call",
      [
        threadStarted({ id: "child-1", parentThreadId: "$THREAD" }),
        notify("item/completed", {
          threadId: "child-1",
          turnId: "ct",
          item: {
            type: "collabAgentToolCall",
            id: "c",
            senderThreadId: "child-1",
            receiverThreadIds: ["child-3"],
          },
        }),
        itemStarted("child-3", "ct"),
      ],
    ],
    [
      "a collab call another thread sent",
      [collabCompleted({ senderThreadId: "other-9", receiverThreadIds: ["child-2"] })],
    ],
    ["a collab call naming no sender", [collabCompleted({ receiverThreadIds: ["child-2"] })]],
    [
      "a collab call with a receiver that is no thread id",
      [collabCompleted({ senderThreadId: "$THREAD", receiverThreadIds: [5] })],
    ],
    [
      "a spawn naming the root spawned",
      [collabCompleted({ senderThreadId: "$THREAD", receiverThreadIds: ["$THREAD"] })],
    ],
    ["an item of another turn of the thread", [itemStarted("$THREAD", "turn-9")]],
  ])("fails the turn on %s as upstream's, the session left for reconciliation", async (_name, frames) => {
    const ours = await expectSameAsUpstream(toolchain(), [...frames, { stop: true }], false);
    expect(savedIdentity(ours)).toMatchObject({ lifecycle: "reconciliation_required" });
    expect(identityEvents(ours).at(-1)).toMatchObject(FAILED_TURN);
  });

  describe("a child's notifications ahead of its spawn's completion (real Codex 0.156.1 sends them so at times)", () => {
    const spawnAgent = (method: string, status: string, receiverThreadIds: string[]) =>
      notify(method, {
        threadId: "$THREAD",
        turnId: "$TURN",
        item: {
          type: "collabAgentToolCall",
          id: "collab-1",
          tool: "spawnAgent",
          status,
          senderThreadId: "$THREAD",
          receiverThreadIds,
        },
      });
    const spawnStarted = spawnAgent("item/started", "inProgress", []);
    const childActive = notify("thread/status/changed", { threadId: "child-7", status: { type: "active" } });
    const childTurn = notify("turn/started", {
      threadId: "child-7",
      turn: { id: "child-turn", status: "inProgress" },
    });
    const childItem = itemStarted("child-7", "child-turn");
    const spawned = (receiverThreadIds: string[], status = "completed") =>
      spawnAgent("item/completed", status, receiverThreadIds);

    it("ours holds them until the spawn names the child, then reports them as in the usual order; upstream's fails the turn", async () => {
      const usual = [spawnStarted, childActive, spawned(["child-7"]), childTurn, childItem];
      const early = [spawnStarted, childActive, childTurn, childItem, spawned(["child-7"])];
      const drive = (frames: Frame[], next: boolean, runnerBin?: string) =>
        driveThrough(toolchain(), framesTurn(next ? frames : [...frames, { stop: true }], next), runnerBin);
      // The reference: upstream's runner on the order Codex usually sends, its next turn too.
      const reference = await drive(usual, true, upstreamRunner());
      const ours = await drive(early, true);
      const upstream = await drive(early, false, upstreamRunner());
      expect(identityEvents(upstream).at(-1)).toMatchObject(FAILED_TURN);
      expect(savedIdentity(upstream)).toMatchObject({ lifecycle: "reconciliation_required" });
      expect(savedIdentity(ours)).toEqual(savedIdentity(reference));
      expect(savedIdentity(ours)).toEqual({ lifecycle: "session_open", descendantThreadIds: ["child-7"] });
      expect(identityEvents(ours)).toEqual(identityEvents(reference));
      expect(eventTypes(ours.committed)).toEqual(eventTypes(reference.committed));
      expect(framesAnswers(ours)).toEqual(framesAnswers(reference));
    });

    it.each<[string, Frame[]]>([
      ["a spawn naming another child", [spawnStarted, childTurn, spawned(["child-8"])]],
      ["a spawn that failed", [spawnStarted, childTurn, spawned([], "failed")]],
      [
        "a turn that ended first",
        [
          spawnStarted,
          childTurn,
          notify("turn/completed", { threadId: "$THREAD", turn: { id: "$TURN", status: "completed" } }),
        ],
      ],
    ])(
      "ours fails the turn on them after %s, as upstream's fails it on their arrival",
      async (_name, frames) => {
        const [ours, upstream] = await bothRunners(
          toolchain(),
          framesTurn([...frames, { stop: true }], false),
        );
        // The same failure; ours reports it once the spawn's completion (or the turn's end) is handled.
        expect(identityEvents(ours)).toEqual(identityEvents(upstream));
        expect(identityEvents(ours).at(-1)).toMatchObject(FAILED_TURN);
        for (const result of [ours, upstream])
          expect(savedIdentity(result)).toMatchObject({ lifecycle: "reconciliation_required" });
      },
    );
  });

  it.each<[string, Frame[]]>([
    [
      "a descendant's tool call",
      [threadStarted({ id: "child-1", parentThreadId: "$THREAD" }), toolCall("child-1", "ct")],
    ],
    [
      "a descendant's question",
      [threadStarted({ id: "child-1", parentThreadId: "$THREAD" }), question("child-1", "ct")],
    ],
    ["another thread's tool call", [toolCall("other-1", "$TURN")]],
    ["another thread's question", [question("other-1", "$TURN")]],
  ])("fails the turn on %s, unanswered, as upstream's", async (_name, frames) => {
    const ours = await expectSameAsUpstream(toolchain(), [...frames, { stop: true }], false);
    expect(identityEvents(ours).at(-2)).toMatchObject({
      payload: { code: "thread_binding_mismatch", classification: "invalid_authoritative" },
    });
  });

  it.each<[string, Frame[]]>([
    ["a tool call naming another turn", [toolCall("$THREAD", "turn-9")]],
    ["a question naming another turn", [question("$THREAD", "turn-9")]],
    [
      "a tool call while no turn runs",
      [
        notify("turn/completed", { threadId: "$THREAD", turn: { id: "$TURN", status: "completed" } }),
        toolCall("$THREAD", "turn-9"),
        { stop: true },
      ],
    ],
  ])("answers %s as a late request and notices it, as upstream's", async (_name, frames) => {
    const ours = await expectSameAsUpstream(toolchain(), frames, true);
    expect(savedIdentity(ours)).toMatchObject({ lifecycle: "session_open" });
  });
});
