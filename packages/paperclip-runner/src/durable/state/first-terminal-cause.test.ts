import { describe, expect, it } from "vitest";
import { FirstTerminalCause } from "./first-terminal-cause.js";

describe("the first terminal cause", () => {
  it("is the only one that writes the lifecycle, however often either claims", () => {
    const byFailure = new FirstTerminalCause();
    expect(byFailure.claim("failure")).toBe(true);
    expect(byFailure.claim("stream_end")).toBe(false);
    expect(byFailure.claim("failure")).toBe(true);
    const byStreamEnd = new FirstTerminalCause();
    expect(byStreamEnd.claim("stream_end")).toBe(true);
    expect(byStreamEnd.claim("failure")).toBe(false);
  });
});
