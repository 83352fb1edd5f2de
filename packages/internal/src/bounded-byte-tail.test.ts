import { describe, expect, it } from "vitest";
import { BoundedByteTail } from "./bounded-byte-tail.js";

describe("BoundedByteTail", () => {
  it("keeps everything up to the limit", () => {
    const tail = new BoundedByteTail(8);
    tail.push(Buffer.from("abc"));
    tail.push(Buffer.from("defgh"));
    expect(tail.text()).toBe("abcdefgh");
    expect(tail.droppedBytes).toBe(0);
  });

  it("keeps the last bytes across chunk boundaries and counts what it dropped", () => {
    const tail = new BoundedByteTail(5);
    for (const part of ["abc", "def", "gh"]) tail.push(Buffer.from(part));
    expect(tail.text()).toBe("defgh");
    expect(tail.bytes).toBe(5);
    expect(tail.droppedBytes).toBe(3);
  });

  it("takes the end of a chunk larger than the limit", () => {
    const tail = new BoundedByteTail(4);
    tail.push(Buffer.from("xy"));
    tail.push(Buffer.from("0123456789"));
    expect(tail.text()).toBe("6789");
    expect(tail.droppedBytes).toBe(8);
  });

  it("leaves out a character the cut split at the front, and keeps whole ones", () => {
    const tail = new BoundedByteTail(4);
    // "€" is three bytes: the cut keeps its last byte, which is dropped, then "abc".
    tail.push(Buffer.from("x€abc"));
    expect(tail.text()).toBe("abc");
    const exact = new BoundedByteTail(6);
    exact.push(Buffer.from("x€abc"));
    expect(exact.text()).toBe("€abc");
  });

  it("stays bounded under a great many tiny chunks", () => {
    const tail = new BoundedByteTail(10);
    for (let index = 0; index < 5000; index += 1) tail.push(Buffer.from(String(index % 10)));
    expect(tail.text()).toBe("0123456789");
    expect(tail.droppedBytes).toBe(4990);
  });

  it("keeps nothing with a zero limit and refuses a negative one", () => {
    const tail = new BoundedByteTail(0);
    tail.push(Buffer.from("abc"));
    expect(tail.text()).toBe("");
    expect(() => new BoundedByteTail(-1)).toThrow(RangeError);
  });
});
