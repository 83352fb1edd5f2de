import type { BenchSuiteResult } from "./bench-result.js";
import { advantage } from "./ratios.js";

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

interface Bar {
  readonly label: string;
  readonly upstream: number | null;
  readonly direct: number | null;
}

/** A horizontal bar chart of the ratios on a log scale, with the tie line at 1×; figures without a peer are left out. */
export function renderRatioChart(suites: readonly BenchSuiteResult[]): string {
  const bars: Bar[] = suites
    .flatMap((suite) =>
      suite.metrics.map((metric) => ({
        label: `${suite.suite}: ${metric.name}`,
        upstream: advantage(metric, metric.upstream),
        direct: advantage(metric, metric.direct),
      })),
    )
    .filter((bar) => bar.upstream !== null || bar.direct !== null);
  const labelWidth = 430;
  const plotWidth = 420;
  const rowHeight = 34;
  const top = 40;
  const height = top + bars.length * rowHeight + 30;
  const maxLog = Math.max(
    1,
    ...bars.flatMap((bar) => [bar.upstream, bar.direct]).map((v) => Math.abs(Math.log10(v ?? 1))),
  );
  const x = (ratio: number) => labelWidth + plotWidth / 2 + (Math.log10(ratio) / maxLog) * (plotWidth / 2);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + plotWidth + 20}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-weight="bold">Ratios (log scale; right of the line = ours better)</text>`,
    `<rect x="${labelWidth}" y="26" width="10" height="10" fill="#2b6cb0"/><text x="${labelWidth + 14}" y="35">vs upstream</text>`,
    `<rect x="${labelWidth + 110}" y="26" width="10" height="10" fill="#9ae6b4"/><text x="${labelWidth + 124}" y="35">vs direct</text>`,
  ];
  bars.forEach((bar, index) => {
    const y = top + index * rowHeight;
    parts.push(`<text x="10" y="${y + 20}">${escapeXml(bar.label.slice(0, 68))}</text>`);
    [bar.upstream, bar.direct].forEach((ratio, series) => {
      if (ratio === null) return;
      const from = Math.min(x(1), x(ratio));
      const width = Math.max(1, Math.abs(x(ratio) - x(1)));
      const fill = series === 0 ? "#2b6cb0" : "#9ae6b4";
      const barY = y + 6 + series * 12;
      parts.push(
        `<rect x="${from.toFixed(1)}" y="${barY}" width="${width.toFixed(1)}" height="10" fill="${fill}"/>`,
      );
      parts.push(
        `<text x="${(Math.max(x(1), x(ratio)) + 4).toFixed(1)}" y="${barY + 9}" font-size="10">${ratio.toFixed(2)}×</text>`,
      );
    });
  });
  parts.push(`<line x1="${x(1)}" y1="${top - 4}" x2="${x(1)}" y2="${height - 20}" stroke="black"/>`);
  parts.push(`<text x="${x(1) - 6}" y="${height - 6}">1×</text>`, "</svg>", "");
  return parts.join("\n");
}
