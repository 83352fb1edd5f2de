import { describe, expect, it } from "vitest";
import { OutputJournal } from "./journal.js";

describe("OutputJournal", () => {
  it("numbers frames from 1 and keeps them in order", () => {
    const journal = new OutputJournal(1024);
    journal.append("stdout", Buffer.from("a"));
    journal.append("stderr", Buffer.from("b"));
    expect(journal.newestSeq).toBe(2);
    expect(journal.frame(1)).toEqual({ seq: 1, stream: "stdout", data: Buffer.from("a"), end: 1 });
    expect(journal.frame(2)?.stream).toBe("stderr");
    expect(journal.frame(3)).toBeUndefined();
  });

  it("evicts the oldest frames past the byte limit but always keeps the newest", () => {
    const journal = new OutputJournal(10);
    for (let index = 0; index < 5; index += 1) journal.append("stdout", Buffer.alloc(4, index));
    expect(journal.evictedBefore).toBe(3);
    expect(journal.bytes).toBe(8);
    expect(journal.frame(3)).toBeUndefined();
    expect(journal.frame(4)?.data).toEqual(Buffer.alloc(4, 3));
    journal.append("stdout", Buffer.alloc(50));
    expect(journal.evictedBefore).toBe(5);
    expect(journal.frame(6)?.data.length).toBe(50);
  });

  it("stays correct across compaction of many evicted frames", () => {
    const journal = new OutputJournal(100);
    for (let index = 1; index <= 5000; index += 1) journal.append("stdout", Buffer.from(String(index % 10)));
    expect(journal.evictedBefore).toBe(4900);
    expect(journal.frame(4901)?.data.toString()).toBe("1");
    expect(journal.frame(5000)?.data.toString()).toBe("0");
  });

  it("wakes readers on append, eviction and exit, and ignores output after exit", async () => {
    const journal = new OutputJournal(100);
    const first = journal.changed();
    journal.append("stdout", Buffer.from("x"));
    await first;
    const second = journal.changed();
    journal.evictAll();
    await second;
    expect(journal.evictedBefore).toBe(1);
    const third = journal.changed();
    journal.finish({ exitCode: 0, signal: null });
    await third;
    journal.append("stdout", Buffer.from("late"));
    expect(journal.newestSeq).toBe(1);
    expect(journal.exit).toEqual({ exitCode: 0, signal: null });
  });
});

describe("OutputJournal with backpressure", () => {
  it("keeps frames no connection has received and reports the backlog", () => {
    const journal = new OutputJournal(10, true);
    for (let index = 0; index < 4; index += 1) journal.append("stdout", Buffer.alloc(4, index));
    expect(journal.evictedBefore).toBe(0);
    expect(journal.bytes).toBe(16);
    expect(journal.backlogged).toBe(true);
    expect(journal.relieved).toBe(false);
  });

  it("evicts only what every attached reader has passed, and relieves at half the limit", () => {
    const journal = new OutputJournal(10, true);
    const fast = journal.attach(0);
    const slow = journal.attach(0);
    for (let index = 0; index < 4; index += 1) journal.append("stdout", Buffer.alloc(4, index));
    for (let seq = 1; seq <= 4; seq += 1) journal.delivered(fast, seq);
    expect(journal.evictedBefore).toBe(0);
    journal.delivered(slow, 2);
    expect(journal.evictedBefore).toBe(2);
    expect(journal.bytes).toBe(8);
    expect(journal.backlogged).toBe(false);
    expect(journal.relieved).toBe(false);
    journal.delivered(slow, 3);
    expect(journal.relieved).toBe(true);
    journal.detach(slow);
    journal.detach(fast);
    journal.append("stdout", Buffer.alloc(4, 9));
    expect(journal.evictedBefore).toBe(3);
    expect(journal.frame(4)?.data).toEqual(Buffer.alloc(4, 3));
  });

  it("never backs up without backpressure", () => {
    const journal = new OutputJournal(10);
    journal.attach(0);
    for (let index = 0; index < 10; index += 1) journal.append("stdout", Buffer.alloc(4));
    expect(journal.backlogged).toBe(false);
    expect(journal.bytes).toBeLessThanOrEqual(10);
  });
});
