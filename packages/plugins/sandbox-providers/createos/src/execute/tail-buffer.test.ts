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

  it("keeps ASCII text as bytes and other text as strings, in their order, across the ring's wrap", () => {
    const tail = new TailBuffer(10);
    tail.append("abcdef", true);
    tail.append("🙂", false);
    tail.append("ghij", true);
    expect(tail.toString()).toBe("cdef🙂ghij");
    expect(tail.droppedChars).toBe(2);
    tail.append("klmnopq", true);
    expect(tail.toString()).toBe("ghijklmnopq".slice(-10));
    expect(tail.droppedBytes).toBe(2 + 4 + 4 + 1);
  });

  it("keeps the end of an ASCII text longer than the tail", () => {
    const tail = new TailBuffer(4);
    tail.append("é", false);
    tail.append("abcdefgh", true);
    expect(tail.toString()).toBe("efgh");
    expect(tail.droppedChars).toBe(5);
    expect(tail.droppedBytes).toBe(6);
  });

  it.each([false, true])("matches a naive tail on many random appends (ASCII kept as bytes: %s)", (ascii) => {
    const tail = new TailBuffer(1000);
    let naive = "";
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5000; i++) {
      const accented = random() < 0.2;
      const piece = (accented ? "é" : "x").repeat(Math.floor(random() * 50)) + String(i);
      tail.append(piece, ascii && !accented);
      naive += piece;
    }
    expect(tail.toString()).toBe(naive.slice(-1000));
    expect(tail.droppedChars).toBe(naive.length - 1000);
    expect(tail.droppedBytes).toBe(Buffer.byteLength(naive.slice(0, -1000)));
  });
});
