import type { BenchMetric } from "./bench-result.js";

/**
 * How many times better `ours` is than `other`: above 1 is better, 1 is a tie.
 * Throughput compares ours/other, times and memory other/ours.
 */
export function advantage(metric: BenchMetric, other: number | null | undefined): number | null {
  if (other === undefined || other === null || other <= 0 || metric.ours <= 0) return null;
  return metric.higherIsBetter ? metric.ours / other : other / metric.ours;
}

export function formatRatio(value: number | null): string {
  return value === null ? "–" : `${value.toFixed(2)}×`;
}

export function formatFigure(value: number | null | undefined): string {
  if (value === undefined) return "–";
  if (value === null) return "fails";
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
