import { describe, expect, it } from "vitest";
import { diffEventStreams, differenceKinds, normaliseEvents } from "../src/normalise-events.js";

const event = (eventType: string, payload: unknown, priority = 0) => ({ eventType, priority, payload });

describe("normaliseEvents", () => {
  it("marks ids (keys ending in Id, digests, fingerprints) for comparison by correspondence", () => {
    const [only] = normaliseEvents([
      event("turn.accepted", { providerTurnId: "01a2-x", content: { digest: "sha256:ab" }, text: "01a2-x" }),
    ]);
    expect(only?.payload).toEqual({
      content: { digest: "<id>sha256:ab" },
      providerTurnId: "<id>01a2-x",
      text: "01a2-x",
    });
  });

  it("masks times and process ids but keeps other values, nested and in arrays", () => {
    const [only] = normaliseEvents([
      event("session.started", {
        processId: 4242,
        at: "2026-12-02T01:57:36.911Z",
        cumulative: { inputTokens: 30 },
        list: [{ callId: "call_1" }],
      }),
    ]);
    expect(only?.payload).toEqual({
      at: "<time>",
      cumulative: { inputTokens: 30 },
      list: [{ callId: "<id>call_1" }],
      processId: "<number>",
    });
  });
});

describe("diffEventStreams", () => {
  it("finds nothing between two runs that differ only in ids, times and pids", () => {
    const run = (suffix: string, pid: number) =>
      normaliseEvents([
        event("session.started", { providerSessionId: `thr-${suffix}`, processId: pid }),
        event("turn.completed", { providerTurnId: `turn-${suffix}`, status: "completed" }),
      ]);
    expect(diffEventStreams(run("a", 1), run("b", 2))).toEqual([]);
  });

  it("holds ids to one correspondence: an id that names another counterpart than before differs", () => {
    const run = (first: string, second: string) =>
      normaliseEvents([
        event("turn.started", { providerTurnId: first }),
        event("turn.completed", { providerTurnId: second }),
      ]);
    expect(diffEventStreams(run("a", "a"), run("x", "x"))).toEqual([]);
    expect(diffEventStreams(run("a", "a"), run("x", "y"))).toEqual([
      'turn.completed: payload.providerTurnId names another id than before ("<id>a" vs "<id>y") @ #2/#2',
    ]);
  });

  it("names a changed field, a missing field and a changed priority", () => {
    const reference = normaliseEvents([event("item.completed", { text: "hi", kind: "agentMessage" }, 1)]);
    const candidate = normaliseEvents([event("item.completed", { text: "bye" }, 2)]);
    expect(diffEventStreams(reference, candidate)).toEqual([
      "item.completed: priority 1 vs 2 @ #1/#1",
      "item.completed: payload.kind missing @ #1/#1",
      'item.completed: payload.text "hi" vs "bye" @ #1/#1',
    ]);
  });

  it("reports a missing and an extra event and still compares the events around them", () => {
    const reference = normaliseEvents([
      event("turn.started", {}),
      event("item.started", {}),
      event("turn.completed", { status: "completed" }),
    ]);
    const candidate = normaliseEvents([
      event("turn.started", {}),
      event("turn.completed", { status: "failed" }),
      event("harness.diagnostic", {}),
    ]);
    expect(diffEventStreams(reference, candidate)).toEqual([
      "item.started: missing in the candidate @ reference #2",
      'turn.completed: payload.status "completed" vs "failed" @ #3/#2',
      "harness.diagnostic: extra, not in the reference @ candidate #3",
    ]);
  });

  it("names each kind of difference once, without positions", () => {
    expect(
      differenceKinds([
        'turn.completed: payload.status "a" vs "b" @ #3/#2',
        'turn.completed: payload.status "a" vs "b" @ #9/#8',
        "item.started: missing in the candidate @ reference #2",
      ]),
    ).toEqual(['turn.completed: payload.status "a" vs "b"', "item.started: missing in the candidate"]);
  });
});
