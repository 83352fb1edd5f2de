import { describe, expect, it } from "vitest";
import { advantage, formatFigure, formatRatio } from "./ratios.js";

describe("advantage", () => {
  it("divides ours by the peer for throughput and the peer by ours for times", () => {
    expect(advantage({ name: "t", unit: "MiB/s", higherIsBetter: true, ours: 200 }, 100)).toBe(2);
    expect(advantage({ name: "l", unit: "ms", higherIsBetter: false, ours: 10 }, 40)).toBe(4);
  });

  it("has no ratio when the peer is missing or failed", () => {
    const metric = { name: "s", unit: "ms", higherIsBetter: false, ours: 10 };
    expect(advantage(metric, undefined)).toBeNull();
    expect(advantage(metric, null)).toBeNull();
    expect(advantage(metric, 0)).toBeNull();
  });

  it("formats figures and ratios for the report", () => {
    expect(formatRatio(1.234)).toBe("1.23×");
    expect(formatRatio(null)).toBe("–");
    expect(formatFigure(null)).toBe("fails");
    expect(formatFigure(1234.5)).toBe("1235");
    expect(formatFigure(12.34)).toBe("12.3");
  });
});
