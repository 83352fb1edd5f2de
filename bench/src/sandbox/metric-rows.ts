// The sandbox suite's report rows, built from the measured figures.
import type { BenchMetric } from "../bench-result.js";
import { PER_CLIENT, ROUNDS, START_RUNS } from "./interleaving.js";
import type { PeerName } from "./peers.js";
import type { StartFigures } from "./start-measurements.js";
import { ratio, round } from "./statistics.js";
import {
  CONCURRENT_TUNNELS,
  type LatencyFigure,
  type ThroughputFigures,
  TRANSFER_MIB,
} from "./tunnel-measurements.js";

const samples = ROUNDS * PER_CLIENT;

export function throughputRow({ mibps }: ThroughputFigures): BenchMetric {
  return {
    name: `CONNECT tunnel throughput (${TRANSFER_MIB} MiB download, median of ${samples})`,
    unit: "MiB/s",
    higherIsBetter: true,
    ours: round(mibps.ours),
    upstream: round(mibps.upstream),
    direct: round(mibps.direct),
    note: `ours/upstream ${ratio(mibps.ours, mibps.upstream)}, ours/direct ${ratio(mibps.ours, mibps.direct)}, upstream/direct ${ratio(mibps.upstream, mibps.direct)}`,
  };
}

/** Ours against the floor of any relaying design (the direct column is the splice relay). */
export function relayFloorRow({ mibps }: ThroughputFigures, floor: number): BenchMetric {
  return {
    name: `CONNECT tunnel throughput against the floor of any relay (${TRANSFER_MIB} MiB download; direct column: one splice(2) relay between two loopback TCP connections, no sandbox, no proxy, median of ${samples})`,
    unit: "MiB/s",
    higherIsBetter: true,
    ours: round(mibps.ours),
    direct: round(floor),
    note: `ours/relay floor ${ratio(mibps.ours, floor)}, relay floor/direct ${ratio(floor, mibps.direct)}`,
  };
}

export function latencyRows(latency: Record<LatencyFigure, Record<PeerName, number>>): BenchMetric[] {
  return (["p50", "p95", "wall"] as const).map((key) => {
    const figure = latency[key];
    return {
      name:
        key === "wall"
          ? `All ${CONCURRENT_TUNNELS} concurrent tunnels established and echoed (wall, median of ${samples} batches)`
          : `Tunnel setup latency, ${CONCURRENT_TUNNELS} concurrent (${key} of a batch, connect to first echoed byte, median of ${samples} batches)`,
      unit: "ms",
      higherIsBetter: false,
      ours: round(figure.ours, 2),
      upstream: round(figure.upstream, 2),
      direct: round(figure.direct, 2),
      note: `ours/upstream ${ratio(figure.ours, figure.upstream)}`,
    };
  });
}

/** Until exit, then with cleanup: one row each. */
export function startRows(start: StartFigures): BenchMetric[] {
  return (["untilExitMs", "ms"] as const).map((key) => {
    const oursMs = start.ours[key];
    const up = start.upstream === null ? null : start.upstream[key];
    return {
      name: `Sandbox start, ${start.scope}: ${key === "ms" ? "build + run /bin/true + cleanup" : "build + run /bin/true (until exit)"} (median of ${START_RUNS})`,
      unit: "ms",
      higherIsBetter: false,
      ours: round(oursMs, 2),
      upstream: up === null ? null : round(up, 2),
      direct: round(start.direct, 2),
      note:
        up === null
          ? `upstream does not start: ${start.failures.join("; ")}`
          : `ours/upstream ${ratio(oursMs, up)}; over direct: ours +${round(oursMs - start.direct)} ms, upstream +${round(up - start.direct)} ms`,
    };
  });
}

/** The allowlist's cost over deny (the bridge and proxy), from the medians until exit. */
export function allowlistOverheadRow(allow: StartFigures, deny: StartFigures): BenchMetric {
  const oursOver = allow.ours.untilExitMs - deny.ours.untilExitMs;
  const upOver =
    allow.upstream === null || deny.upstream === null
      ? null
      : allow.upstream.untilExitMs - deny.upstream.untilExitMs;
  return {
    name: `Allowlist start overhead over deny, ${allow.scope} minus ${deny.scope} (bridge and proxy; medians until exit)`,
    unit: "ms",
    higherIsBetter: false,
    ours: round(oursOver, 2),
    upstream: upOver === null ? null : round(upOver, 2),
    note:
      upOver === null
        ? "upstream does not start this scope"
        : `ours +${round(oursOver)} ms, upstream +${round(upOver)} ms`,
  };
}

export function spawnHelperStartRow(scope: string, figure: Record<PeerName, number>): BenchMetric {
  return {
    name: `Sandbox start via runChildProcess, ${scope}: /bin/true until the helper returns (median of ${START_RUNS})`,
    unit: "ms",
    higherIsBetter: false,
    ours: round(figure.ours, 2),
    upstream: round(figure.upstream, 2),
    direct: round(figure.direct, 2),
    note: `ours/upstream ${ratio(figure.ours, figure.upstream)}; over direct: ours +${round(figure.ours - figure.direct)} ms, upstream +${round(figure.upstream - figure.direct)} ms`,
  };
}
