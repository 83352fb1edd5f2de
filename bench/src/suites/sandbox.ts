import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer, type Server } from "node:net";
import path from "node:path";
import * as ours from "@paperclipai/adapter-utils/local-process-sandbox";
import * as upstream from "upstream-adapter-utils/local-process-sandbox";
import * as upstreamServerUtils from "upstream-adapter-utils/server-utils";
import type { BenchMetric, BenchSuite } from "../bench-result.js";
import { startSpliceRelay } from "../splice-relay.js";

const MIB = 1024 * 1024;
const TRANSFER_MIB = 64;
const CONCURRENT_TUNNELS = 200;
const START_RUNS = 21;
/** Rounds of the network measurements: one sandboxed client per peer and round, peers in rotating order. */
const ROUNDS = 7;
/** Measurements each client makes per round (transfers, or batches of concurrent tunnels). */
const PER_CLIENT = 3;
const BRIDGE = "http://127.0.0.1:31337";

type Build = (input: {
  executable: string;
  args: string[];
  cwd: string;
  options: ours.LocalProcessSandboxOptions;
}) => Promise<ours.LocalProcessSandboxSpawnTarget>;

const peers: { name: "ours" | "upstream"; build: Build }[] = [
  { name: "ours", build: ours.buildLocalProcessSandboxSpawnTarget },
  { name: "upstream", build: upstream.buildLocalProcessSandboxSpawnTarget as Build },
];

/**
 * The in-sandbox client (CommonJS). `throughput`: `count` transfers, each one
 * tunnel (or a direct connection) reading TRANSFER_MIB from the source server,
 * timed from the established tunnel to the last byte. `latency`: `count`
 * batches, each CONCURRENT_TUNNELS concurrent tunnels timed from connect() to
 * the first echoed byte.
 */
const CLIENT = `"use strict";
const net = require("node:net");
const [mode, via, port, amount, count] = process.argv.slice(2);
// "direct": the target itself; "plain:<port>": a relay that forwards to it; else the proxy URL (CONNECT).
const plainPort = via === "direct" ? Number(port) : via.startsWith("plain:") ? Number(via.slice(6)) : null;
const proxy = plainPort === null ? new URL(via) : null;
function open(onReady) {
  const socket = proxy ? net.connect(Number(proxy.port), proxy.hostname) : net.connect(plainPort, "127.0.0.1");
  socket.setNoDelay(true);
  if (!proxy) { socket.once("connect", () => onReady(socket, Buffer.alloc(0))); return socket; }
  socket.once("connect", () => socket.write("CONNECT 127.0.0.1:" + port + " HTTP/1.1\\r\\nHost: 127.0.0.1:" + port + "\\r\\n\\r\\n"));
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\\r\\n\\r\\n");
    if (end === -1) return;
    socket.off("data", onData);
    if (!head.subarray(0, 12).toString().startsWith("HTTP/1.1 200")) throw new Error("tunnel refused: " + head.toString());
    onReady(socket, head.subarray(end + 4));
  };
  socket.on("data", onData);
  return socket;
}
function throughputOnce(bytes) {
  return new Promise((resolve, reject) => {
    const s = open((socket, rest) => {
      const started = process.hrtime.bigint();
      let received = rest.length;
      socket.on("data", (chunk) => {
        received += chunk.length;
        if (received >= bytes) { resolve(Number(process.hrtime.bigint() - started) / 1e6); socket.destroy(); }
      });
    });
    s.on("error", reject);
  });
}
function latencyAll(count) {
  const started = process.hrtime.bigint();
  return Promise.all(Array.from({ length: count }, () => new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const s = open((socket) => {
      socket.once("data", () => { resolve(Number(process.hrtime.bigint() - t0) / 1e6); socket.destroy(); });
      socket.write("x");
    });
    s.on("error", reject);
  }))).then((each) => ({ each, wallMs: Number(process.hrtime.bigint() - started) / 1e6 }));
}
(async () => {
  const results = [];
  for (let i = 0; i < Number(count); i += 1)
    results.push(mode === "throughput" ? await throughputOnce(Number(amount)) : await latencyAll(Number(amount)));
  console.log(JSON.stringify(results));
})().catch((error) => { console.error(String(error)); process.exit(3); });
`;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Loopback source: writes `bytes` to each connection, honouring backpressure. */
function sourceServer(bytes: number): Server {
  const chunk = Buffer.alloc(MIB, 0x61);
  return createServer((socket) => {
    socket.on("error", () => {});
    let left = bytes;
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!socket.write(piece)) {
          socket.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
}

function echoServer(): Server {
  return createServer((socket) => {
    socket.on("error", () => {});
    socket.pipe(socket);
  });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Build, spawn and exit, cleanup included. */
  ms: number;
  /** Build, spawn and exit: the program has run; teardown not included. */
  untilExitMs: number;
}

/** Builds the target with `build`, spawns it, waits for exit, runs cleanup; `ms` covers all of it. */
async function runTarget(
  build: Build | null,
  executable: string,
  args: string[],
  cwd: string,
  options: ours.LocalProcessSandboxOptions,
): Promise<Run> {
  const started = performance.now();
  const target = build
    ? await build({ executable, args, cwd, options })
    : { command: executable, args, cwd, env: {} };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...target.env }))
    if (value !== undefined) env[key] = value;
  const child = spawn(target.command, target.args, {
    cwd: target.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", (exit) => resolve(exit)));
  const untilExitMs = performance.now() - started;
  await ("cleanup" in target ? target.cleanup?.() : undefined);
  return { code, stdout, stderr, ms: performance.now() - started, untilExitMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

type PeerName = "direct" | "ours" | "upstream";

type RunChild = typeof ours.runChildProcess;
/** The spawn helpers (upstream's lives in its server-utils module); `direct` runs the same helper unsandboxed. */
const spawnHelpers: { name: PeerName; run: RunChild }[] = [
  { name: "direct", run: ours.runChildProcess },
  { name: "ours", run: ours.runChildProcess },
  { name: "upstream", run: upstreamServerUtils.runChildProcess as RunChild },
];
const networkPeers: { name: PeerName; build: Build | null }[] = [{ name: "direct", build: null }, ...peers];

/** `list` rotated by `by`: the peer that goes first changes every round, so no peer always follows a warm-up. */
function rotate<T>(list: readonly T[], by: number): T[] {
  const shift = by % list.length;
  return [...list.slice(shift), ...list.slice(0, shift)];
}

export const run: BenchSuite = async () => {
  const workspace = await mkdtemp("/tmp/pc-bench-sandbox-");
  const clientPath = path.join(workspace, "client.cjs");
  await writeFile(clientPath, CLIENT);
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
  const allowlist = (port: number): ours.LocalProcessSandboxOptions => ({
    workspaceDir: workspace,
    networkScope: "allowlist",
    networkAllowlist: [`127.0.0.1:${port}`],
  });
  const client = async <T>(
    build: Build | null,
    mode: string,
    port: number,
    amount: number,
    via = build ? BRIDGE : "direct",
  ): Promise<T[]> => {
    const result = await runTarget(
      build,
      process.execPath,
      [clientPath, mode, via, String(port), String(amount), String(PER_CLIENT)],
      workspace,
      allowlist(port),
    );
    if (result.code !== 0) throw new Error(`client failed (${result.code}): ${result.stderr.trim()}`);
    return JSON.parse(result.stdout) as T[];
  };
  const ratio = (a: number, b: number) => round(a / b, 2);

  try {
    // Throughput: every transfer is one sample.
    const throughput: Record<PeerName, number[]> = { direct: [], ours: [], upstream: [] };
    const relayThroughput: number[] = [];
    const throughputPeers = relay ? [...networkPeers, null] : networkPeers;
    for (let index = 0; index < ROUNDS; index += 1) {
      for (const peer of rotate(throughputPeers, index)) {
        const times = peer
          ? await client<number>(peer.build, "throughput", sourcePort, TRANSFER_MIB * MIB)
          : await client<number>(null, "throughput", sourcePort, TRANSFER_MIB * MIB, `plain:${relay!.port}`);
        const samples = peer ? throughput[peer.name] : relayThroughput;
        for (const ms of times) samples.push(TRANSFER_MIB / (ms / 1000));
      }
    }
    const mibps = {
      direct: median(throughput.direct),
      ours: median(throughput.ours),
      upstream: median(throughput.upstream),
    };
    metrics.push({
      name: `CONNECT tunnel throughput (${TRANSFER_MIB} MiB download, median of ${ROUNDS * PER_CLIENT})`,
      unit: "MiB/s",
      higherIsBetter: true,
      ours: round(mibps.ours),
      upstream: round(mibps.upstream),
      direct: round(mibps.direct),
      note: `ours/upstream ${ratio(mibps.ours, mibps.upstream)}, ours/direct ${ratio(mibps.ours, mibps.direct)}, upstream/direct ${ratio(mibps.upstream, mibps.direct)}`,
    });

    // The floor of any relaying design, measured in the same rounds: the unsandboxed client
    // through one splice(2) relay between two loopback TCP connections.
    if (relay) {
      const floor = median(relayThroughput);
      metrics.push({
        name: `CONNECT tunnel throughput against the floor of any relay (${TRANSFER_MIB} MiB download; direct column: one splice(2) relay between two loopback TCP connections, no sandbox, no proxy, median of ${ROUNDS * PER_CLIENT})`,
        unit: "MiB/s",
        higherIsBetter: true,
        ours: round(mibps.ours),
        direct: round(floor),
        note: `ours/relay floor ${ratio(mibps.ours, floor)}, relay floor/direct ${ratio(floor, mibps.direct)}`,
      });
    } else {
      notes.push(`The relay-floor reference is left out: ${relayMissing}.`);
    }

    // Connection setup under concurrency: every batch of concurrent tunnels is one sample of p50, p95 and wall.
    const latency: Record<PeerName, { p50: number[]; p95: number[]; wall: number[] }> = {
      direct: { p50: [], p95: [], wall: [] },
      ours: { p50: [], p95: [], wall: [] },
      upstream: { p50: [], p95: [], wall: [] },
    };
    for (let index = 0; index < ROUNDS; index += 1) {
      for (const peer of rotate(networkPeers, index)) {
        const batches = await client<{ each: number[]; wallMs: number }>(
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
    const batches = ROUNDS * PER_CLIENT;
    for (const key of ["p50", "p95", "wall"] as const) {
      const figure = (name: PeerName) => median(latency[name][key]);
      metrics.push({
        name:
          key === "wall"
            ? `All ${CONCURRENT_TUNNELS} concurrent tunnels established and echoed (wall, median of ${batches} batches)`
            : `Tunnel setup latency, ${CONCURRENT_TUNNELS} concurrent (${key} of a batch, connect to first echoed byte, median of ${batches} batches)`,
        unit: "ms",
        higherIsBetter: false,
        ours: round(figure("ours"), 2),
        upstream: round(figure("upstream"), 2),
        direct: round(figure("direct"), 2),
        note: `ours/upstream ${ratio(figure("ours"), figure("upstream"))}`,
      });
    }

    // Start time per scope: build + spawn + exit (+ cleanup) of /bin/true, median of START_RUNS.
    const scopes: { name: string; options: ours.LocalProcessSandboxOptions }[] = [
      { name: "network deny", options: { workspaceDir: workspace, networkScope: "deny" } },
      { name: "network allowlist", options: allowlist(echoPort) },
      { name: "workspace", options: { workspaceDir: workspace, filesystemScope: "workspace" } },
      {
        name: "workspace + deny",
        options: { workspaceDir: workspace, filesystemScope: "workspace", networkScope: "deny" },
      },
      { name: "workspace + allowlist", options: { ...allowlist(echoPort), filesystemScope: "workspace" } },
    ];
    // Medians until exit, per scope and package, for the allowlist's cost over deny (the bridge).
    const untilExit = new Map<string, Record<"ours" | "upstream", number | null>>();
    for (const scope of scopes) {
      const directStarts: number[] = [];
      const runs: Record<"ours" | "upstream", Run[]> = { ours: [], upstream: [] };
      const failures: string[] = [];
      const failed = new Set<string>();
      // Direct starts are interleaved with the sandboxed ones, so all three see the same load.
      for (let index = 0; index < START_RUNS; index += 1) {
        for (const peer of rotate(networkPeers, index)) {
          if (failed.has(peer.name)) continue;
          const result = await runTarget(peer.build, "/bin/true", [], workspace, scope.options);
          if (peer.name === "direct") {
            directStarts.push(result.ms);
            continue;
          }
          if (result.code !== 0) {
            failures.push(`${peer.name}: exit ${result.code}, ${result.stderr.trim().split("\n")[0]}`);
            failed.add(peer.name);
            continue;
          }
          runs[peer.name].push(result);
        }
      }
      const direct = median(directStarts);
      const figure = (name: "ours" | "upstream", key: "ms" | "untilExitMs") =>
        failed.has(name) ? null : median(runs[name].map((r) => r[key]));
      if (figure("ours", "ms") === null)
        throw new Error(`our sandbox did not start (${scope.name}): ${failures.join("; ")}`);
      untilExit.set(scope.name, {
        ours: figure("ours", "untilExitMs"),
        upstream: figure("upstream", "untilExitMs"),
      });
      for (const key of ["untilExitMs", "ms"] as const) {
        const oursMs = figure("ours", key)!;
        const up = figure("upstream", key);
        metrics.push({
          name: `Sandbox start, ${scope.name}: ${key === "ms" ? "build + run /bin/true + cleanup" : "build + run /bin/true (until exit)"} (median of ${START_RUNS})`,
          unit: "ms",
          higherIsBetter: false,
          ours: round(oursMs, 2),
          upstream: up === null ? null : round(up, 2),
          direct: round(direct, 2),
          note:
            up === null
              ? `upstream does not start: ${failures.join("; ")}`
              : `ours/upstream ${ratio(oursMs, up)}; over direct: ours +${round(oursMs - direct)} ms, upstream +${round(up - direct)} ms`,
        });
      }
    }

    for (const [allow, deny] of [
      ["network allowlist", "network deny"],
      ["workspace + allowlist", "workspace + deny"],
    ] as const) {
      const over = (name: "ours" | "upstream") => {
        const a = untilExit.get(allow)?.[name];
        const d = untilExit.get(deny)?.[name];
        return a == null || d == null ? null : a - d;
      };
      const oursOver = over("ours")!;
      const upOver = over("upstream");
      metrics.push({
        name: `Allowlist start overhead over deny, ${allow} minus ${deny} (bridge and proxy; medians until exit)`,
        unit: "ms",
        higherIsBetter: false,
        ours: round(oursOver, 2),
        upstream: upOver === null ? null : round(upOver, 2),
        note:
          upOver === null
            ? "upstream does not start this scope"
            : `ours +${round(oursOver)} ms, upstream +${round(upOver)} ms`,
      });
    }

    // The same starts through each package's spawn helper, as adapters run them (env from the host process).
    for (const scope of scopes.slice(0, 2)) {
      const times: Record<PeerName, number[]> = { direct: [], ours: [], upstream: [] };
      for (let index = 0; index < START_RUNS; index += 1) {
        for (const helper of rotate(spawnHelpers, index)) {
          const started = performance.now();
          const result = await helper.run("bench", "/bin/true", [], {
            cwd: workspace,
            env: {},
            timeoutSec: 0,
            graceSec: 1,
            onLog: async () => {},
            localProcessSandbox: helper.name === "direct" ? null : scope.options,
          });
          if (result.exitCode !== 0) throw new Error(`${helper.name} runChildProcess failed (${scope.name})`);
          times[helper.name].push(performance.now() - started);
        }
      }
      const figure = (name: PeerName) => median(times[name]);
      metrics.push({
        name: `Sandbox start via runChildProcess, ${scope.name}: /bin/true until the helper returns (median of ${START_RUNS})`,
        unit: "ms",
        higherIsBetter: false,
        ours: round(figure("ours"), 2),
        upstream: round(figure("upstream"), 2),
        direct: round(figure("direct"), 2),
        note: `ours/upstream ${ratio(figure("ours"), figure("upstream"))}; over direct: ours +${round(figure("ours") - figure("direct"))} ms, upstream +${round(figure("upstream") - figure("direct"))} ms`,
      });
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
