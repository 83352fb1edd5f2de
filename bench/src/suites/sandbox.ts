import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BenchMetric, BenchSuite } from "../bench-result.js";
import { PER_CLIENT, ROUNDS, START_RUNS } from "../sandbox/interleaving.js";
import { echoServer, listen, MIB, sourceServer } from "../sandbox/loopback-servers.js";
import {
  allowlistOverheadRow,
  latencyRows,
  relayFloorRow,
  spawnHelperStartRow,
  startRows,
  throughputRow,
} from "../sandbox/metric-rows.js";
import {
  measureSandboxStarts,
  measureSpawnHelperStarts,
  type StartFigures,
  startScopes,
} from "../sandbox/start-measurements.js";
import { TUNNEL_CLIENT_SOURCE } from "../sandbox/tunnel-client.js";
import { measureThroughput, measureTunnelLatency, TRANSFER_MIB } from "../sandbox/tunnel-measurements.js";
import { startSpliceRelay } from "../splice-relay.js";

export const run: BenchSuite = async () => {
  const workspace = await mkdtemp("/tmp/pc-bench-sandbox-");
  const clientPath = path.join(workspace, "client.cjs");
  await writeFile(clientPath, TUNNEL_CLIENT_SOURCE);
  const source = sourceServer(TRANSFER_MIB * MIB);
  const echo = echoServer();
  const sourcePort = await listen(source);
  const echoPort = await listen(echo);
  const metrics: BenchMetric[] = [];
  const started = await startSpliceRelay(workspace, sourcePort);
  const relay = started.relay;
  const relayMissing = started.relay ? "" : started.reason;
  const notes: string[] = [
    "Network figures use the network-only allowlist scope for both packages (upstream's workspace scope cannot start on this merged-/usr host); the client runs inside the sandbox and tunnels through the in-sandbox bridge and the host proxy to a loopback server.",
    `Every figure is a median over interleaved runs: ${ROUNDS} rounds of one sandboxed client per peer (direct, ours, upstream, first peer rotating) with ${PER_CLIENT} measurements each, and ${START_RUNS} rounds of sandbox starts, so a change in machine load hits every peer alike.`,
  ];
  const setup = { workspace, clientPath };

  try {
    const throughput = await measureThroughput(setup, sourcePort, relay ? relay.port : null);
    metrics.push(throughputRow(throughput));
    if (throughput.relayFloor !== null) metrics.push(relayFloorRow(throughput, throughput.relayFloor));
    else notes.push(`The relay-floor reference is left out: ${relayMissing}.`);

    metrics.push(...latencyRows(await measureTunnelLatency(setup, echoPort)));

    const scopes = startScopes(workspace, echoPort);
    const starts = new Map<string, StartFigures>();
    for (const scope of scopes) {
      const start = await measureSandboxStarts(workspace, scope);
      starts.set(scope.name, start);
      metrics.push(...startRows(start));
    }
    for (const [allow, deny] of [
      ["network allowlist", "network deny"],
      ["workspace + allowlist", "workspace + deny"],
    ] as const) {
      metrics.push(allowlistOverheadRow(starts.get(allow)!, starts.get(deny)!));
    }

    for (const scope of scopes.slice(0, 2)) {
      metrics.push(spawnHelperStartRow(scope.name, await measureSpawnHelperStarts(workspace, scope)));
    }
  } finally {
    await relay?.stop();
    source.close();
    echo.close();
    await rm(workspace, { recursive: true, force: true });
  }
  return {
    suite: "sandbox",
    title: "Local-process sandbox (bubblewrap) vs upstream @paperclipai/adapter-utils",
    metrics,
    notes,
  };
};
