import { describe, expect, it } from "vitest";
import { AnswerFirst } from "./answer-first.js";

const sendable = (hold: AnswerFirst, seqs: number[]) => seqs.filter((seq) => hold.sendable(seq));

describe("events held for the answer of the command being applied", () => {
  it("sends everything while no event asked to follow an answer", () => {
    const hold = new AnswerFirst();
    hold.queued(1, false);
    hold.queued(2, false);
    expect(sendable(hold, [1, 2, 3])).toEqual([1, 2, 3]);
  });

  it("holds the first event marked afterAnswer and every one after it, marked or not, until the answer", () => {
    const hold = new AnswerFirst();
    hold.queued(4, false);
    hold.queued(5, true);
    hold.queued(6, false);
    hold.queued(7, true);
    expect(sendable(hold, [4, 5, 6, 7])).toEqual([4]);
    hold.answered();
    expect(sendable(hold, [4, 5, 6, 7])).toEqual([4, 5, 6, 7]);
  });

  it("holds again from the next marked event after an answer", () => {
    const hold = new AnswerFirst();
    hold.queued(1, true);
    hold.answered();
    hold.queued(2, false);
    hold.queued(3, true);
    expect(sendable(hold, [1, 2, 3, 4])).toEqual([1, 2]);
  });
});
