import { describe, expect, it } from "vitest";
import { webStreamBody } from "./web-stream-body.js";

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

describe("webStreamBody (a fetch body, pumped)", () => {
  it("hands every chunk over and resolves true with the body's end", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1]));
        controller.enqueue(new Uint8Array([2, 3]));
        controller.close();
      },
    });
    const seen: number[][] = [];
    const ended = await webStreamBody(body).pump((chunk) => {
      seen.push([...chunk]);
      return false;
    }, new AbortController().signal);
    expect(ended).toBe(true);
    expect(seen).toEqual([[1], [2, 3]]);
  });

  it("ends a read that would never settle when the signal aborts, cancelling the body with the reason", async () => {
    const { body, cancelled } = silentAfterOneChunk();
    const connection = new AbortController();
    const stalled = Symbol("stalled");
    const seen: number[][] = [];
    const reading = webStreamBody(body).pump((chunk) => {
      seen.push([...chunk]);
      // The second read is now pending on a body that never answers.
      queueMicrotask(() => connection.abort(stalled));
      return false;
    }, connection.signal);
    await expect(reading).rejects.toBe(stalled);
    expect(seen).toEqual([[1, 2, 3]]);
    expect(cancelled()).toBe(stalled);
  });

  it("cancels the rest of the body when the handler stops, or throws", async () => {
    const stopped = silentAfterOneChunk();
    expect(await webStreamBody(stopped.body).pump(() => true, new AbortController().signal)).toBe(false);
    expect(stopped.cancelled()).toBeUndefined();
    const broken = silentAfterOneChunk();
    const failure = new Error("handler");
    const reading = webStreamBody(broken.body).pump(() => {
      throw failure;
    }, new AbortController().signal);
    await expect(reading).rejects.toBe(failure);
    expect(broken.cancelled()).toBeUndefined();
  });

  it("rejects at once when the signal was already aborted", async () => {
    const { body } = silentAfterOneChunk();
    await expect(webStreamBody(body).pump(() => false, AbortSignal.abort("gone"))).rejects.toBe("gone");
  });
});
