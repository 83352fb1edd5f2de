import { describe, expect, it } from "vitest";
import { mayFallBack, type OfferPhase, readyToDrain } from "./offer-progress.js";

const PHASES: OfferPhase[] = ["offered", "draining", "handed-off", "relaying"];

describe("readyToDrain", () => {
  it("needs the offer out, the socket taken and the bridge's end, in either order", () => {
    expect(readyToDrain({ phase: "offered", taken: true, bridgeEnded: true })).toBe(true);
    expect(readyToDrain({ phase: "offered", taken: true, bridgeEnded: false })).toBe(false);
    expect(readyToDrain({ phase: "offered", taken: false, bridgeEnded: true })).toBe(false);
  });

  it("never drains twice nor after the host took the relay", () => {
    for (const phase of PHASES.filter((candidate) => candidate !== "offered")) {
      expect(readyToDrain({ phase, taken: true, bridgeEnded: true })).toBe(false);
    }
  });
});

describe("mayFallBack", () => {
  it("falls back while the offer is out and not taken, whether or not the program ended", () => {
    expect(mayFallBack({ phase: "offered", taken: false, bridgeEnded: false })).toBe(true);
    expect(mayFallBack({ phase: "offered", taken: false, bridgeEnded: true })).toBe(true);
  });

  it("ignores a refusal once the bridge took the socket or the offer moved on", () => {
    expect(mayFallBack({ phase: "offered", taken: true, bridgeEnded: false })).toBe(false);
    for (const phase of PHASES.filter((candidate) => candidate !== "offered")) {
      expect(mayFallBack({ phase, taken: false, bridgeEnded: false })).toBe(false);
    }
  });
});
