// The sandbox suite's network measurements: the in-sandbox client through each peer's tunnel
// (the bridge and the host proxy) to a loopback server, interleaved over the peers.

import { PER_CLIENT, ROUNDS, rotate } from "./interleaving.js";
import { MIB } from "./loopback-servers.js";
import { allowlistScope, type Build, networkPeers, type PeerName } from "./peers.js";
import { runTarget } from "./run-target.js";
import { median, percentile } from "./statistics.js";

export const TRANSFER_MIB = 64;
export const CONCURRENT_TUNNELS = 200;
/** The in-sandbox bridge's proxy, as the sandbox's environment names it. */
const BRIDGE = "http://127.0.0.1:31337";

/** Where the in-sandbox client runs: the suite's workspace and the client's script in it. */
export interface TunnelClientSetup {
  workspace: string;
  clientPath: string;
}

/** Runs the client once (PER_CLIENT measurements) through `build`'s sandbox, or unsandboxed over `via`. */
async function runTunnelClient<T>(
  setup: TunnelClientSetup,
  build: Build | null,
  mode: "throughput" | "latency",
  port: number,
  amount: number,
  via = build ? BRIDGE : "direct",
): Promise<T[]> {
  const result = await runTarget(
    build,
    process.execPath,
    [setup.clientPath, mode, via, String(port), String(amount), String(PER_CLIENT)],
    setup.workspace,
    allowlistScope(setup.workspace, port),
  );
  if (result.code !== 0) throw new Error(`client failed (${result.code}): ${result.stderr.trim()}`);
  return JSON.parse(result.stdout) as T[];
}

export interface ThroughputFigures {
  /** Median MiB/s per peer. */
  mibps: Record<PeerName, number>;
  /** Median MiB/s of the unsandboxed client through the splice relay; null without a relay. */
  relayFloor: number | null;
}

/**
 * Every transfer of TRANSFER_MIB is one sample. With `relayPort`, the floor of any relaying
 * design is measured in the same rounds: the unsandboxed client through one splice(2) relay.
 */
export async function measureThroughput(
  setup: TunnelClientSetup,
  sourcePort: number,
  relayPort: number | null,
): Promise<ThroughputFigures> {
  const throughput: Record<PeerName, number[]> = { direct: [], ours: [], upstream: [] };
  const relayThroughput: number[] = [];
  const throughputPeers = relayPort === null ? networkPeers : [...networkPeers, null];
  for (let index = 0; index < ROUNDS; index += 1) {
    for (const peer of rotate(throughputPeers, index)) {
      const times = peer
        ? await runTunnelClient<number>(setup, peer.build, "throughput", sourcePort, TRANSFER_MIB * MIB)
        : await runTunnelClient<number>(
            setup,
            null,
            "throughput",
            sourcePort,
            TRANSFER_MIB * MIB,
            `plain:${relayPort}`,
          );
      const samples = peer ? throughput[peer.name] : relayThroughput;
      for (const ms of times) samples.push(TRANSFER_MIB / (ms / 1000));
    }
  }
  return {
    mibps: {
      direct: median(throughput.direct),
      ours: median(throughput.ours),
      upstream: median(throughput.upstream),
    },
    relayFloor: relayPort === null ? null : median(relayThroughput),
  };
}

export type LatencyFigure = "p50" | "p95" | "wall";

/**
 * Connection setup under concurrency: every batch of CONCURRENT_TUNNELS concurrent tunnels is
 * one sample of p50, p95 and wall. Returns the median of each figure per peer.
 */
export async function measureTunnelLatency(
  setup: TunnelClientSetup,
  echoPort: number,
): Promise<Record<LatencyFigure, Record<PeerName, number>>> {
  const latency: Record<PeerName, Record<LatencyFigure, number[]>> = {
    direct: { p50: [], p95: [], wall: [] },
    ours: { p50: [], p95: [], wall: [] },
    upstream: { p50: [], p95: [], wall: [] },
  };
  for (let index = 0; index < ROUNDS; index += 1) {
    for (const peer of rotate(networkPeers, index)) {
      const batches = await runTunnelClient<{ each: number[]; wallMs: number }>(
        setup,
        peer.build,
        "latency",
        echoPort,
        CONCURRENT_TUNNELS,
      );
      for (const { each, wallMs } of batches) {
        latency[peer.name].p50.push(percentile(each, 50));
        latency[peer.name].p95.push(percentile(each, 95));
        latency[peer.name].wall.push(wallMs);
      }
    }
  }
  const medians = (key: LatencyFigure): Record<PeerName, number> => ({
    direct: median(latency.direct[key]),
    ours: median(latency.ours[key]),
    upstream: median(latency.upstream[key]),
  });
  return { p50: medians("p50"), p95: medians("p95"), wall: medians("wall") };
}
