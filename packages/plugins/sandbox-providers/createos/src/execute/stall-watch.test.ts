import { describe, expect, it } from "vitest";
import { StallWatch } from "./stall-watch.js";

describe("StallWatch", () => {
  it("calls a stall only when two ticks in a row see silence past the threshold", () => {
    const watch = new StallWatch();
    expect(watch.tick(150, 100)).toBe(false);
    expect(watch.tick(175, 100)).toBe(true);
  });

  it("forgets the suspicion when a tick in between sees a fresh byte", () => {
    const watch = new StallWatch();
    expect(watch.tick(400, 100)).toBe(false);
    expect(watch.tick(5, 100)).toBe(false);
    expect(watch.tick(150, 100)).toBe(false);
    expect(watch.tick(175, 100)).toBe(true);
  });

  it("silence up to the threshold itself is no stall", () => {
    const watch = new StallWatch();
    expect(watch.tick(100, 100)).toBe(false);
    expect(watch.tick(100, 100)).toBe(false);
  });
});
