import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { controllerLines } from "./controller-lines.js";

describe("controllerLines", () => {
  it("stops reading stdin while its queue is full and reads on as lines are taken", async () => {
    const input = new PassThrough();
    const lines = controllerLines(input, 1024, 4);
    input.write(`${Array.from({ length: 10 }, (_, index) => `line ${index}`).join("\n")}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    // One chunk brought ten lines: the queue is past its bound, so stdin is paused.
    expect(input.isPaused()).toBe(true);
    const iterator = lines.lines[Symbol.asyncIterator]();
    const taken: unknown[] = [];
    for (let index = 0; index < 7; index += 1) taken.push((await iterator.next()).value);
    expect(input.isPaused()).toBe(false);
    expect(taken).toEqual(["line 0", "line 1", "line 2", "line 3", "line 4", "line 5", "line 6"]);
    input.end("last");
    const rest: unknown[] = [];
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      rest.push(next.value);
    }
    expect(rest).toEqual(["line 7", "line 8", "line 9", "last"]);
  });

  it("reports a line over the bound by its size, never holding it", async () => {
    const input = new PassThrough();
    const lines = controllerLines(input, 8);
    input.end("0123456789abcdef\nok\n");
    const seen: unknown[] = [];
    for await (const line of lines.lines) seen.push(line);
    expect(seen).toEqual([{ oversizedBytes: 16 }, "ok"]);
  });
});
