import { finished } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { watchedReplyBody } from "./reply-body.js";

/**
 * A fetch body that sends one chunk and then stalls, as a server that stopped sending; it
 * watches no signal itself, as undici's stops doing once its controller was collected.
 */
function stalledAfterOneChunk(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([1, 2, 3]));
    },
  });
}

/** The first chunk the stream hands over; the stream is paused after it. */
async function firstChunk(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunk = await new Promise<Buffer>((resolve) => stream.once("data", resolve));
  stream.pause();
  return chunk;
}

describe("watchedReplyBody (a download's body)", () => {
  it("fails a stalled read as soon as the attempt's signal aborts, though the body ignores it", async () => {
    const attempt = new AbortController();
    let settled = 0;
    const stream = watchedReplyBody(stalledAfterOneChunk(), {
      signal: attempt.signal,
      onProgress: () => undefined,
      toError: (cause) => new Error(`read failed: ${String(cause)}`),
      onSettled: () => {
        settled += 1;
      },
    });
    expect(await firstChunk(stream)).toEqual(Buffer.from([1, 2, 3]));
    const failed = finished(stream);
    stream.resume();
    attempt.abort("deadline");
    await expect(failed).rejects.toThrow("read failed: deadline");
    expect(settled).toBe(1);
  });

  it("settles its attempt as it is destroyed mid-read, so a stalled read ends at once", async () => {
    // The attempt's close aborts its signal, as AttemptScope.close does.
    const attempt = new AbortController();
    let settled = 0;
    const stream = watchedReplyBody(stalledAfterOneChunk(), {
      signal: attempt.signal,
      onProgress: () => undefined,
      toError: (cause) => cause,
      onSettled: () => {
        settled += 1;
        attempt.abort();
      },
    });
    expect(await firstChunk(stream)).toEqual(Buffer.from([1, 2, 3]));
    stream.destroy();
    expect(settled).toBe(1);
    await finished(stream).catch(() => undefined);
    expect(stream.destroyed).toBe(true);
    expect(settled).toBe(1);
  });

  it("settles once when the body ends", async () => {
    let settled = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([7]));
        controller.close();
      },
    });
    const stream = watchedReplyBody(body, {
      signal: new AbortController().signal,
      onProgress: () => undefined,
      toError: (cause) => cause,
      onSettled: () => {
        settled += 1;
      },
    });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([7]));
    expect(settled).toBe(1);
  });
});
