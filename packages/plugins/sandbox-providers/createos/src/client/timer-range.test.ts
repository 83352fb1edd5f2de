import { describe, expect, it } from "vitest";
import { MAX_TIMER_MS, timerRangeMs } from "./timer-range.js";

describe("timerRangeMs", () => {
  it("keeps a delay a timer holds and cuts a longer one to the longest it holds", () => {
    expect(timerRangeMs(1)).toBe(1);
    expect(timerRangeMs(MAX_TIMER_MS)).toBe(MAX_TIMER_MS);
    expect(timerRangeMs(3_000_000_000)).toBe(2_147_483_647);
  });
});
