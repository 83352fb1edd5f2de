import { describe, expect, it } from "vitest";
import { ByteQueue } from "./byte-queue.js";

describe("ByteQueue", () => {
  it("keeps bytes first in, first out, across the ring's wrap and its growth", () => {
    const queue = new ByteQueue(8192);
    let naive = "";
    for (let i = 0; i < 2000; i++) {
      const text = String.fromCharCode(97 + (i % 26)).repeat(1 + ((i * 37) % 700));
      if (queue.length + text.length > 8192) {
        const drop = queue.length + text.length - 8192 + (i % 5);
        queue.shift(drop);
        naive = naive.slice(drop);
      }
      queue.pushLatin1(text);
      naive += text;
      expect(queue.length).toBe(naive.length);
    }
    expect(queue.latin1(0, queue.length)).toBe(naive);
    expect(queue.latin1(100, 50)).toBe(naive.slice(100, 150));
  });

  it("grows past its limit only when it must, and empties on clear", () => {
    const queue = new ByteQueue(3);
    queue.pushLatin1("abc");
    queue.pushLatin1("d");
    expect(queue.latin1(0, 4)).toBe("abcd");
    queue.clear();
    expect(queue.length).toBe(0);
    expect(queue.latin1(0, 0)).toBe("");
    queue.pushLatin1("d");
    expect(queue.latin1(0, 1)).toBe("d");
  });
});
