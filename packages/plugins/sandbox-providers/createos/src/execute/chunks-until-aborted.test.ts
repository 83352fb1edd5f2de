import { describe, expect, it } from "vitest";
import { chunksUntilAborted } from "./chunks-until-aborted.js";

/** A body that sends one chunk and then nothing, and does not watch any signal itself. */
function silentAfterOneChunk(): { body: ReadableStream<Uint8Array>; cancelled: () => unknown } {
  let reason: unknown = "not cancelled";
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([1, 2, 3]));
    },
    cancel(why) {
      reason = why;
    },
  });
  return { body, cancelled: () => reason };
}

describe("chunksUntilAborted", () => {
  it("yields every chunk and ends with the body", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1]));
        controller.enqueue(new Uint8Array([2, 3]));
        controller.close();
      },
    });
    const seen: number[][] = [];
    for await (const chunk of chunksUntilAborted(body, new AbortController().signal)) seen.push([...chunk]);
    expect(seen).toEqual([[1], [2, 3]]);
  });

  it("ends a read that would never settle when the signal aborts, cancelling the body with the reason", async () => {
    const { body, cancelled } = silentAfterOneChunk();
    const connection = new AbortController();
    const stalled = Symbol("stalled");
    const seen: number[][] = [];
    const reading = (async () => {
      for await (const chunk of chunksUntilAborted(body, connection.signal)) {
        seen.push([...chunk]);
        // The second read is now pending on a body that never answers.
        queueMicrotask(() => connection.abort(stalled));
      }
    })();
    await expect(reading).rejects.toBe(stalled);
    expect(seen).toEqual([[1, 2, 3]]);
    expect(cancelled()).toBe(stalled);
  });

  it("cancels the rest of the body when the reader leaves early", async () => {
    const { body, cancelled } = silentAfterOneChunk();
    for await (const _chunk of chunksUntilAborted(body, new AbortController().signal)) break;
    expect(cancelled()).toBeUndefined();
  });

  it("throws at once when the signal was already aborted", async () => {
    const { body } = silentAfterOneChunk();
    const reading = chunksUntilAborted(body, AbortSignal.abort("gone")).next();
    await expect(reading).rejects.toBe("gone");
  });
});
