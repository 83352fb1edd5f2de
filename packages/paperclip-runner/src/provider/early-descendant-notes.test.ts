import { describe, expect, it } from "vitest";
import { EarlyDescendantNotes, MAX_EARLY_DESCENDANT_NOTES } from "./early-descendant-notes.js";

const ROOT = "thread-root";
const none = { has: () => false };
const spawn = (id: string, extra: Record<string, unknown> = {}) => ({
  threadId: ROOT,
  turnId: "turn-1",
  item: { type: "collabAgentToolCall", id, tool: "spawnAgent", ...extra },
});
const childTurn = (threadId: string) => ({ threadId, turn: { id: "child-turn", status: "inProgress" } });

describe("EarlyDescendantNotes", () => {
  it("holds another thread's turn notification only while one of the root's spawns is in progress", () => {
    const notes = new EarlyDescendantNotes();
    expect(notes.hold("turn/started", childTurn("child-1"), ROOT, none)).toBe(false);
    expect(notes.observe("item/started", spawn("c1"), ROOT)).toBe(false);
    expect(notes.hold("turn/started", childTurn("child-1"), ROOT, none)).toBe(true);
    expect(notes.hold("item/started", { threadId: "child-1", turnId: "child-turn" }, ROOT, none)).toBe(true);
    expect(notes.observe("item/completed", spawn("c1"), ROOT)).toBe(true);
    expect(notes.take().map((note) => note.method)).toEqual(["turn/started", "item/started"]);
    expect(notes.hold("turn/started", childTurn("child-2"), ROOT, none)).toBe(false);
  });

  it("holds nothing the identity rules accept: the root's, a known descendant's, a new thread, another thread's information", () => {
    const notes = new EarlyDescendantNotes();
    notes.observe("item/started", spawn("c1"), ROOT);
    expect(notes.hold("turn/started", childTurn(ROOT), ROOT, none)).toBe(false);
    expect(notes.hold("turn/started", { turn: { id: "t" } }, ROOT, none)).toBe(false);
    expect(notes.hold("turn/started", childTurn("child-1"), ROOT, { has: (id) => id === "child-1" })).toBe(
      false,
    );
    expect(notes.hold("thread/started", { thread: { id: "child-1" } }, ROOT, none)).toBe(false);
    expect(notes.hold("thread/status/changed", { threadId: "child-1" }, ROOT, none)).toBe(false);
    expect(notes.hold("warning", { threadId: "child-1", message: "m" }, ROOT, none)).toBe(false);
    // An id past upstream's bound is a mismatch whatever a spawn names.
    expect(notes.hold("turn/started", childTurn("x".repeat(241)), ROOT, none)).toBe(false);
    expect(notes.take()).toEqual([]);
  });

  it("follows only the root's spawnAgent calls, each by its item id", () => {
    const notes = new EarlyDescendantNotes();
    notes.observe("item/started", { ...spawn("c1"), threadId: "child-9" }, ROOT);
    notes.observe("item/started", spawn("c2", { tool: "sendInput" }), ROOT);
    expect(notes.hold("turn/started", childTurn("child-1"), ROOT, none)).toBe(false);
    notes.observe("item/started", spawn("c1"), ROOT);
    notes.observe("item/started", spawn("c3"), ROOT);
    expect(notes.hold("turn/started", childTurn("child-1"), ROOT, none)).toBe(true);
    // One of two spawns completed: the held note is judged again, and the other spawn still holds.
    expect(notes.observe("item/completed", spawn("c1"), ROOT)).toBe(true);
    notes.take();
    expect(notes.hold("turn/started", childTurn("child-1"), ROOT, none)).toBe(true);
    // A completion with nothing held asks for nothing.
    notes.take();
    expect(notes.observe("item/completed", spawn("c3"), ROOT)).toBe(false);
  });

  it("holds at most MAX_EARLY_DESCENDANT_NOTES, then lets the next one be judged at once", () => {
    const notes = new EarlyDescendantNotes();
    notes.observe("item/started", spawn("c1"), ROOT);
    for (let index = 0; index < MAX_EARLY_DESCENDANT_NOTES; index += 1)
      expect(notes.hold("item/agentMessage/delta", { threadId: "child-1" }, ROOT, none)).toBe(true);
    expect(notes.hold("item/agentMessage/delta", { threadId: "child-1" }, ROOT, none)).toBe(false);
  });

  it("gives up what a turn held when it ends, and awaits no spawn of it", () => {
    const notes = new EarlyDescendantNotes();
    notes.observe("item/started", spawn("c1"), ROOT);
    notes.hold("turn/started", childTurn("child-1"), ROOT, none);
    expect(notes.endTurn()).toHaveLength(1);
    expect(notes.hold("turn/started", childTurn("child-1"), ROOT, none)).toBe(false);
    expect(notes.observe("item/completed", spawn("c1"), ROOT)).toBe(false);
  });
});
