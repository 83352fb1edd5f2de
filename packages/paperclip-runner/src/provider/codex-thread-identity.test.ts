import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyThreadIdentity, isValidProviderId, UNRELATED_INFORMATION } from "./codex-thread-identity.js";

const ROOT = "thread-root";
const known = (...ids: string[]) => new Set(ids);
const classify = (method: string, params: Record<string, unknown>, descendants = known()) =>
  classifyThreadIdentity(method, params, ROOT, descendants);
const started = (thread: Record<string, unknown>) => classify("thread/started", { thread });
const collab = (item: Record<string, unknown>) =>
  classify("item/completed", {
    threadId: ROOT,
    turnId: "turn-1",
    item: {
      type: "collabAgentToolCall",
      id: "c1",
      tool: "spawnAgent",
      status: "completed",
      senderThreadId: ROOT,
      ...item,
    },
  });
const MISMATCH = { kind: "mismatch", code: "thread_binding_mismatch" };

describe("the thread a Codex notification speaks for", () => {
  it("takes the root's notifications, and those naming no thread, as its own", () => {
    expect(classify("item/started", { threadId: ROOT, turnId: "turn-1" })).toEqual({
      kind: "own",
      learned: [],
    });
    expect(classify("warning", { message: "no thread" })).toEqual({ kind: "own", learned: [] });
    expect(started({ id: ROOT })).toEqual({ kind: "own", learned: [] });
  });

  it.each([
    ["parentThreadId", { parentThreadId: ROOT }],
    ["subAgent.thread_spawn", { source: { subAgent: { thread_spawn: { parent_thread_id: ROOT } } } }],
    ["subAgent.threadSpawn", { source: { subAgent: { threadSpawn: { parentThreadId: ROOT } } } }],
    ["subagent.thread_spawn", { source: { subagent: { thread_spawn: { parent_thread_id: ROOT } } } }],
  ])("learns a thread started with the root as its parent (%s)", (_name, lineage) => {
    expect(started({ id: "child-1", ...lineage })).toEqual({ kind: "descendant", learned: ["child-1"] });
  });

  it("learns a known descendant's child, and reports a descendant's progress without authority", () => {
    const descendants = known("child-1");
    const grandchild = { thread: { id: "child-2", parentThreadId: "child-1" } };
    expect(classify("thread/started", grandchild, descendants)).toEqual({
      kind: "descendant",
      learned: ["child-2"],
    });
    for (const method of [
      "turn/started",
      "item/completed",
      "turn/completed",
      "warning",
      "thread/tokenUsage/updated",
    ])
      expect(classify(method, { threadId: "child-1", turnId: "child-turn" }, descendants)).toEqual({
        kind: "descendant",
        learned: [],
      });
  });

  it("fails a descendant's notification naming a malformed turn", () => {
    for (const turnId of ["", 5, "t".repeat(241)])
      expect(classify("item/started", { threadId: "child-1", turnId }, known("child-1"))).toEqual(MISMATCH);
  });

  it("notices another thread's information and fails anything else it claims", () => {
    for (const method of UNRELATED_INFORMATION)
      expect(classify(method, { threadId: "other-1", thread: { id: "other-1" } })).toEqual({
        kind: "unrelated",
      });
    for (const method of [
      "item/started",
      "turn/completed",
      "error",
      "thread/compacted",
      "thread/name/updated",
    ])
      expect(classify(method, { threadId: "other-1" })).toEqual(MISMATCH);
  });

  it("notices a thread started under an unknown parent, or its own, as unrelated", () => {
    for (const lineage of [
      {},
      { parentThreadId: "other-9" },
      { parentThreadId: "child-1" },
      { parentThreadId: 5 },
    ])
      expect(started({ id: "child-1", ...lineage })).toEqual({ kind: "unrelated" });
  });

  it("fails a thread started under two different parents, or a malformed thread id", () => {
    const source = { subAgent: { thread_spawn: { parent_thread_id: "other-9" } } };
    expect(started({ id: "child-1", parentThreadId: ROOT, source })).toEqual(MISMATCH);
    for (const threadId of [42, "", "é".repeat(121)])
      expect(classify("warning", { threadId, message: "m" })).toEqual(MISMATCH);
  });

  it("learns the receivers of the root's completed spawnAgent call, and nothing from other collab calls", () => {
    expect(collab({ receiverThreadIds: ["child-2", "child-3"] })).toEqual({
      kind: "own",
      learned: ["child-2", "child-3"],
    });
    for (const item of [
      { status: "failed", receiverThreadIds: ["child-2"] },
      { tool: "sendInput", receiverThreadIds: [ROOT] },
      { tool: "wait", senderThreadId: "other-9", receiverThreadIds: ["child-2"] },
    ])
      expect(collab(item)).toEqual({ kind: "own", learned: [] });
    const begun = {
      threadId: ROOT,
      item: { type: "collabAgentToolCall", tool: "spawnAgent", receiverThreadIds: ["c"] },
    };
    expect(classify("item/started", begun)).toEqual({ kind: "own", learned: [] });
  });

  it("fails a spawn the root did not send, or whose receivers are not other threads' ids", () => {
    const lineage = { kind: "mismatch", code: "invalid_spawn_lineage" };
    for (const item of [
      { senderThreadId: "other-9", receiverThreadIds: ["child-2"] },
      { senderThreadId: undefined, receiverThreadIds: ["child-2"] },
      { receiverThreadIds: ["child-2", 5] },
      { receiverThreadIds: ["child-2", ROOT] },
      { receiverThreadIds: "child-2" },
    ])
      expect(collab(item)).toEqual(lineage);
  });

  it("takes ids of 1 to 240 bytes of UTF-8 only", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (id) => {
        const bytes = Buffer.byteLength(id);
        expect(isValidProviderId(id)).toBe(bytes > 0 && bytes <= 240);
      }),
    );
    expect(isValidProviderId("c".repeat(240))).toBe(true);
    expect(isValidProviderId(null)).toBe(false);
  });
});
