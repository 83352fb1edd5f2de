import { describe, expect, it } from "vitest";
import { HeartbeatCadence, stallThreshold } from "./stall-threshold.js";

describe("stallThreshold", () => {
  it("uses the configured timeout until a cadence is known", () => {
    expect(stallThreshold(15_000, 0)).toBe(15_000);
  });
  it("shortens to four heartbeat intervals, within floor and ceiling", () => {
    expect(stallThreshold(15_000, 2_000)).toBe(8_000);
    expect(stallThreshold(15_000, 100)).toBe(1_000);
    expect(stallThreshold(15_000, 10_000)).toBe(15_000);
    expect(stallThreshold(500, 100, 200)).toBe(400);
  });
});

describe("HeartbeatCadence", () => {
  it("measures gaps between consecutive heartbeats only", () => {
    const cadence = new HeartbeatCadence();
    cadence.onHeartbeat(1_000);
    expect(cadence.gapMs).toBe(0);
    cadence.onHeartbeat(3_000);
    expect(cadence.gapMs).toBe(2_000);
    cadence.interrupt();
    cadence.onHeartbeat(60_000);
    expect(cadence.gapMs).toBe(2_000);
    cadence.onHeartbeat(62_500);
    expect(cadence.gapMs).toBe(2_500);
  });
});
