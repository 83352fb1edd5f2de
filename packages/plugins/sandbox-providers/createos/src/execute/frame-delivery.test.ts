import { describe, expect, it } from "vitest";
import type { FollowStats } from "./follow-stats.js";
import { FrameDelivery } from "./frame-delivery.js";
import type { OutputStream } from "./output-frame.js";
import { HeartbeatCadence } from "./stall-threshold.js";

function data(seq: number, stream: OutputStream, bytes: Buffer | string): Record<string, unknown> {
  return { type: "data", seq, stream, data_base64: Buffer.from(bytes).toString("base64") };
}

function setup(sink?: (stream: OutputStream, text: string, ascii: boolean) => void) {
  const stats: FollowStats = { cursor: 0, connections: 0, reconnects: 0, duplicates: 0 };
  const seen: [OutputStream, string, boolean][] = [];
  const delivery = new FrameDelivery(
    stats,
    new HeartbeatCadence(),
    sink ?? ((stream, text, ascii) => seen.push([stream, text, ascii])),
  );
  return { stats, seen, delivery };
}

describe("FrameDelivery", () => {
  it("delivers each seq once and in order, moving the cursor and counting replays", () => {
    const { stats, seen, delivery } = setup();
    expect(delivery.deliver(data(1, "stdout", "a"))).toBeUndefined();
    delivery.deliver(data(2, "stderr", "é"));
    delivery.deliver(data(1, "stdout", "a"));
    expect(seen).toEqual([
      ["stdout", "a", true],
      ["stderr", "é", false],
    ]);
    expect(stats).toMatchObject({ cursor: 2, duplicates: 1 });
  });
  it("holds a UTF-8 sequence cut across frames until its end, and flushes a cut tail", () => {
    const { seen, delivery } = setup();
    const euro = Buffer.from("€");
    delivery.deliver(data(1, "stdout", euro.subarray(0, 1)));
    expect(seen).toEqual([]);
    delivery.deliver(data(2, "stdout", euro.subarray(1)));
    delivery.deliver(data(3, "stdout", euro.subarray(0, 2)));
    delivery.flush();
    expect(seen.map(([, text]) => text)).toEqual(["€", "\uFFFD"]);
  });
  it("returns the exit frame's status; heartbeats are remembered; unknown types are ignored", () => {
    const { delivery } = setup();
    expect(delivery.heartbeatsSeen).toBe(false);
    expect(delivery.deliver({ type: "heartbeat" })).toBeUndefined();
    expect(delivery.heartbeatsSeen).toBe(true);
    expect(delivery.deliver({ type: "progress" })).toBeUndefined();
    expect(delivery.deliver({ type: "exit", exit_code: 3 })).toEqual({ exitCode: 3, signal: null });
  });
  it("an error frame ends the follow: an expired offset is an eviction", () => {
    const { delivery } = setup();
    expect(() => delivery.deliver({ type: "error", error: "output_offset_expired" })).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_OUTPUT_EVICTED" }),
    );
    expect(() => delivery.deliver({ type: "error", error: "x".repeat(300) })).toThrow(
      expect.objectContaining({
        code: "ERR_CREATEOS_OUTPUT_INVALID",
        details: { reason: "error frame", error: "x".repeat(100) },
      }),
    );
  });
  it("a sink that throws stops the follow with its error as the cause, the cursor moved past it", () => {
    const broken = new Error("host gone");
    const { stats, delivery } = setup(() => {
      throw broken;
    });
    let thrown: unknown;
    try {
      delivery.deliver(data(1, "stdout", "a"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "ERR_CREATEOS_LIVE_LOG_FAILED", cause: broken });
    expect(stats.cursor).toBe(1);
  });
});
