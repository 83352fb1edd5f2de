import { scoreCorpus } from "../../../packages/errors/test/redaction-corpus/score.js";
import type { BenchMetric, BenchSuite } from "../bench-result.js";
import { type BenchInput, HOSTILE_INPUTS, TYPICAL_INPUTS } from "../redaction/bench-inputs.js";
import { measureInChild } from "../redaction/measure-in-child.js";
import { REDACTORS, type RedactorName } from "../redaction/redactors.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const BUDGET_MS = 20_000;
const NAMES: readonly RedactorName[] = ["ours", "upstream", "previous"];

interface Throughput {
  readonly mbPerSecond: number | null;
  /** Time at 1 MiB over time at 256 KiB: 4 when the time grows linearly. */
  readonly growth: number | null;
}

async function throughput(redactor: RedactorName, input: BenchInput, repeats: number): Promise<Throughput> {
  const small = await measureInChild({ redactor, input: input.name, bytes: 256 * KiB, repeats }, BUDGET_MS);
  if (small === null) return { mbPerSecond: null, growth: null };
  const large = await measureInChild({ redactor, input: input.name, bytes: MiB, repeats }, BUDGET_MS);
  if (large === null) return { mbPerSecond: null, growth: null };
  return { mbPerSecond: MiB / 1e6 / (large / 1000), growth: large / Math.max(small, 0.001) };
}

const growthText = (name: string, figure: Throughput) =>
  `${name} ${figure.growth === null ? `did not finish in ${BUDGET_MS / 1000} s` : `${figure.growth.toFixed(1)}×`}`;

export const run: BenchSuite = async () => {
  const metrics: BenchMetric[] = [];

  const scores = Object.fromEntries(NAMES.map((name) => [name, scoreCorpus(REDACTORS[name])]));
  const { ours, upstream, previous } = scores as Record<RedactorName, ReturnType<typeof scoreCorpus>>;
  const recall = (score: typeof ours) => (100 * score.caught) / score.secretLines;
  const intact = (score: typeof ours) =>
    (100 * (score.operatorLines - score.falsePositives)) / score.operatorLines;
  metrics.push(
    {
      name: `labelled corpus: secret lines fully redacted (of ${ours.secretLines})`,
      unit: "%",
      higherIsBetter: true,
      ours: recall(ours),
      upstream: recall(upstream),
      direct: recall(previous),
      note: `caught ${ours.caught}, upstream ${upstream.caught}, previous ${previous.caught}; every secret gone and the context kept`,
    },
    {
      name: `labelled corpus: operator lines left unchanged (of ${ours.operatorLines})`,
      unit: "%",
      higherIsBetter: true,
      ours: intact(ours),
      upstream: intact(upstream),
      direct: intact(previous),
      note: `false positives: ours ${ours.falsePositives}, upstream ${upstream.falsePositives}, previous ${previous.falsePositives}`,
    },
  );

  for (const [inputs, repeats] of [
    [TYPICAL_INPUTS, 7],
    [HOSTILE_INPUTS, 3],
  ] as const) {
    for (const input of inputs) {
      const figures = {} as Record<RedactorName, Throughput>;
      // One redactor at a time, each in its own process.
      for (const name of NAMES) figures[name] = await throughput(name, input, repeats);
      const previousFigure = figures.previous.mbPerSecond;
      const upstreamFigure = figures.upstream.mbPerSecond;
      const ratio =
        upstreamFigure === null || figures.ours.mbPerSecond === null
          ? "upstream does not finish"
          : `ours/upstream ${(figures.ours.mbPerSecond / upstreamFigure).toFixed(2)}`;
      metrics.push({
        name: `${input.name} (1 MiB)`,
        unit: "MB/s",
        higherIsBetter: true,
        ours: figures.ours.mbPerSecond ?? 0,
        upstream: figures.upstream.mbPerSecond,
        ...(previousFigure === null ? {} : { direct: previousFigure }),
        note: `${ratio}; 1 MiB takes ${NAMES.map((name) => growthText(name, figures[name])).join(", ")} the time of 256 KiB (4× = linear)`,
      });
    }
  }

  return {
    suite: "redaction",
    title: "redactSecrets vs upstream redactDiagnosticText and our previous version",
    metrics,
    notes: [
      "In this suite the direct column holds our previous redactSecrets (a frozen copy in bench/src/redaction/previous-redact-secrets.ts), the baseline; upstream is redactDiagnosticText of @paperclipai/adapter-utils@2026.916.1.",
      "The labelled corpus is packages/errors/test/redaction-corpus (the errors package's test asserts 100% and no false positives for ours).",
      `Throughput: median of 7 runs (typical) or 3 runs (hostile) per redactor, each in its own process; a redactor that does not finish within ${BUDGET_MS / 1000} s is stopped and shown as "fails".`,
      "On a shared, loaded machine a single MB/s figure can move by 2× between runs; the corpus counts, the growth ratios and the runs that never finish are the stable signal.",
    ],
  };
};
