import { describe, expect, it } from "vitest";
import { TailBuffer } from "./tail-buffer.js";

describe("TailBuffer", () => {
  it("keeps everything under the limit", () => {
    const tail = new TailBuffer(10);
    tail.append("abc");
    tail.append("");
    tail.append("def");
    expect(tail.toString()).toBe("abcdef");
    expect(tail.truncated).toBe(false);
    expect(tail.droppedChars).toBe(0);
  });

  it("keeps exactly the last characters and counts what it dropped", () => {
    const tail = new TailBuffer(5);
    for (const piece of ["abc", "défg", "hi"]) tail.append(piece);
    expect(tail.toString()).toBe("éfghi");
    expect(tail.droppedChars).toBe(4);
    expect(tail.droppedBytes).toBe(4);
    tail.append("j");
    expect(tail.toString()).toBe("fghij");
    expect(tail.droppedBytes).toBe(6);
  });

  it("never splits a surrogate pair", () => {
    const tail = new TailBuffer(3);
    tail.append("a🙂b"); // a, high, low, b
    expect(tail.toString()).toBe("🙂b");
    tail.append("c");
    expect(tail.toString()).toBe("bc");
    expect(tail.droppedChars).toBe(3);
    expect(tail.droppedBytes).toBe(5);
  });

  it("matches a naive tail on many random appends", () => {
    const tail = new TailBuffer(1000);
    let naive = "";
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5000; i++) {
      const piece = "x".repeat(Math.floor(random() * 50)) + String(i);
      tail.append(piece);
      naive += piece;
    }
    expect(tail.toString()).toBe(naive.slice(-1000));
    expect(tail.droppedChars).toBe(naive.length - 1000);
    expect(tail.droppedBytes).toBe(naive.length - 1000);
  });
});
