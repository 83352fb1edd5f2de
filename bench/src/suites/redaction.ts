import { scoreCorpus } from "../../../packages/errors/test/redaction-corpus/score.js";
import type { BenchMetric, BenchSuite } from "../bench-result.js";
import {
  type BenchInput,
  DISTINCT_VALUE_INPUTS,
  HOSTILE_INPUTS,
  TYPICAL_INPUTS,
} from "../redaction/bench-inputs.js";
import { measureInChild } from "../redaction/measure-in-child.js";
import { REDACTORS, type RedactorName } from "../redaction/redactors.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const BUDGET_MS = 20_000;
const NAMES: readonly RedactorName[] = ["ours", "upstream", "previous"];
/**
 * Inputs near parity (typical text, hostile units with distinct values) get more rounds than
 * the repeated hostile ones (ratios of 2× and more): with two, a ratio of 1.2-1.5× measured in
 * one process read 0.87× in the report when ours landed on the host's slow level twice.
 */
const TYPICAL_ROUNDS = 5;
const HOSTILE_ROUNDS = 2;
/**
 * Timed runs per process after a warm-up run, the median counted: the same for every input. With
 * three, a hostile input's median fell in the first runs V8 spends optimising (ours took 14 ms,
 * then 4 ms from about the tenth run), which the cold-start rows measure on their own.
 */
const RUNS_PER_PROCESS = 7;

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

/**
 * Each redactor's best of `rounds` rounds, every redactor measured once per round: this host's speed
 * moves between two levels about 1.6× apart, minutes or seconds long, so one process per redactor
 * ranked them by the moment each ran; the best round of each is the same level for all. A redactor
 * that did not finish is not tried again.
 */
async function bestOfRounds(
  input: BenchInput,
  repeats: number,
  rounds: number,
): Promise<Record<RedactorName, Throughput>> {
  const best = {} as Record<RedactorName, Throughput>;
  for (let round = 0; round < rounds; round += 1) {
    for (const name of NAMES) {
      const kept = best[name];
      if (kept !== undefined && kept.mbPerSecond === null) continue;
      const figure = await throughput(name, input, repeats);
      if (kept === undefined || (figure.mbPerSecond ?? 0) > (kept.mbPerSecond ?? 0)) best[name] = figure;
    }
  }
  return best;
}

/** Each redactor's best first run over 1 MiB of `input` in a fresh process, the redactors taking turns. */
async function bestColdStarts(
  input: BenchInput,
  rounds: number,
): Promise<Record<RedactorName, number | null>> {
  const best = {} as Record<RedactorName, number | null>;
  for (let round = 0; round < rounds; round += 1) {
    for (const name of NAMES) {
      if (best[name] === null) continue;
      const ms = await measureInChild(
        { redactor: name, input: input.name, bytes: MiB, repeats: 1, coldStart: true },
        BUDGET_MS,
      );
      best[name] = ms === null ? null : Math.min(ms, best[name] ?? Number.POSITIVE_INFINITY);
    }
  }
  return best;
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

  for (const [inputs, rounds] of [
    [TYPICAL_INPUTS, TYPICAL_ROUNDS],
    [HOSTILE_INPUTS, HOSTILE_ROUNDS],
    [DISTINCT_VALUE_INPUTS, TYPICAL_ROUNDS],
  ] as const) {
    for (const input of inputs) {
      const figures = await bestOfRounds(input, RUNS_PER_PROCESS, rounds);
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

  // The figures above are of code V8 has optimised; a process's first megabyte runs before that,
  // and a scanner written in JavaScript pays for it where one made of regular expressions does not.
  for (const input of TYPICAL_INPUTS) {
    const cold = await bestColdStarts(input, TYPICAL_ROUNDS);
    metrics.push({
      name: `${input.name}: the first call in a fresh process (1 MiB)`,
      unit: "ms",
      higherIsBetter: false,
      ours: cold.ours ?? 0,
      upstream: cold.upstream,
      ...(cold.previous === null ? {} : { direct: cold.previous }),
      note: `nothing optimised yet: the time a short-lived process or a daemon's first megabyte pays; best of ${TYPICAL_ROUNDS} processes each, taking turns`,
    });
  }

  return {
    suite: "redaction",
    title: "redactSecrets vs upstream redactDiagnosticText and our previous version",
    metrics,
    notes: [
      "In this suite the direct column holds our previous redactSecrets (a frozen copy in bench/src/redaction/previous-redact-secrets.ts), the baseline; upstream is redactDiagnosticText of @paperclipai/adapter-utils@2026.916.1.",
      "The labelled corpus is packages/errors/test/redaction-corpus (the errors package's test asserts 100% and no false positives for ours).",
      `Throughput: median of ${RUNS_PER_PROCESS} runs after a warm-up run, in one process per redactor and size; the best of ${TYPICAL_ROUNDS} (typical, and hostile with distinct values) or ${HOSTILE_ROUNDS} (hostile, repeated) such processes, the three redactors taking turns round by round; a redactor that does not finish within ${BUDGET_MS / 1000} s is stopped and shown as "fails".`,
      "This host's speed moves between two levels about 1.6× apart (the same redactor, the same input: 28 or 46 ms a MiB, process to process and within one); the rounds let each redactor's best land on the same level, and the corpus counts, the growth ratios and the runs that never finish stay the stable signal.",
    ],
  };
};
