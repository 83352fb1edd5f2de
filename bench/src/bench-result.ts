/** One measured figure of a suite, with its peers measured in the same run. */
export interface BenchMetric {
  /** What is measured, for example "CONNECT tunnel throughput (64 MiB)". */
  readonly name: string;
  /** The unit of the three figures, for example "MiB/s", "ms", "MiB". */
  readonly unit: string;
  /** `true` for throughput-like figures, `false` for times and memory. */
  readonly higherIsBetter: boolean;
  /** Our package's figure. */
  readonly ours: number;
  /** The upstream npm package's figure, where there is a peer; `null` when upstream cannot run this case. */
  readonly upstream?: number | null;
  /** The direct (unsandboxed / raw) path's figure, where there is one. */
  readonly direct?: number;
  /** Why a figure is missing, or how to read it. */
  readonly note?: string;
}

export interface BenchSuiteResult {
  /** File-safe id, for example "sandbox". */
  readonly suite: string;
  readonly title: string;
  readonly metrics: readonly BenchMetric[];
  readonly notes?: readonly string[];
}

/** A suite module in `src/suites/` exports `run` with this type. */
export type BenchSuite = () => Promise<BenchSuiteResult>;
