import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer, type Server } from "node:net";
import path from "node:path";
import * as ours from "@paperclipai/adapter-utils/local-process-sandbox";
import * as upstream from "upstream-adapter-utils/local-process-sandbox";
import type { BenchMetric, BenchSuite } from "../bench-result.js";

const MIB = 1024 * 1024;
const TRANSFER_MIB = 64;
const CONCURRENT_TUNNELS = 200;
const START_RUNS = 15;
/** Rounds of the network measurements; peers alternate within a round. */
const ROUNDS = 3;
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
 * The in-sandbox client (CommonJS). `throughput`: one tunnel (or a direct
 * connection) reading TRANSFER_MIB from the source server, timed from the
 * established tunnel to the last byte, best of 3. `latency`: N concurrent
 * tunnels, each timed from connect() to the first echoed byte.
 */
const CLIENT = `"use strict";
const net = require("node:net");
const [mode, via, port, amount] = process.argv.slice(2);
const proxy = via === "direct" ? null : new URL(via);
function open(onReady) {
  const socket = proxy ? net.connect(Number(proxy.port), proxy.hostname) : net.connect(Number(port), "127.0.0.1");
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
  if (mode === "throughput") {
    const times = [];
    for (let i = 0; i < 3; i += 1) times.push(await throughputOnce(Number(amount)));
    console.log(JSON.stringify({ ms: Math.min(...times) }));
  } else {
    console.log(JSON.stringify(await latencyAll(Number(amount))));
  }
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

export const run: BenchSuite = async () => {
  const workspace = await mkdtemp("/tmp/pc-bench-sandbox-");
  const clientPath = path.join(workspace, "client.cjs");
  await writeFile(clientPath, CLIENT);
  const source = sourceServer(TRANSFER_MIB * MIB);
  const echo = echoServer();
  const sourcePort = await listen(source);
  const echoPort = await listen(echo);
  const metrics: BenchMetric[] = [];
  const notes: string[] = [
    "Network figures use the network-only allowlist scope for both packages (upstream's workspace scope cannot start on this merged-/usr host); the client runs inside the sandbox and tunnels through the in-sandbox bridge and the host proxy to a loopback server.",
  ];
  const allowlist = (port: number): ours.LocalProcessSandboxOptions => ({
    workspaceDir: workspace,
    networkScope: "allowlist",
    networkAllowlist: [`127.0.0.1:${port}`],
  });
  const client = async (build: Build | null, mode: string, port: number, amount: number) => {
    const via = build ? BRIDGE : "direct";
    const result = await runTarget(
      build,
      process.execPath,
      [clientPath, mode, via, String(port), String(amount)],
      workspace,
      allowlist(port),
    );
    if (result.code !== 0) throw new Error(`client failed (${result.code}): ${result.stderr.trim()}`);
    return JSON.parse(result.stdout) as { ms: number } & { each: number[]; wallMs: number };
  };

  try {
    // Throughput.
    const throughput: Record<string, number> = { direct: 0, ours: 0, upstream: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const peer of [{ name: "direct", build: null }, ...peers]) {
        const { ms } = await client(peer.build, "throughput", sourcePort, TRANSFER_MIB * MIB);
        throughput[peer.name] = Math.max(throughput[peer.name]!, TRANSFER_MIB / (ms / 1000));
      }
    }
    metrics.push({
      name: `CONNECT tunnel throughput (${TRANSFER_MIB} MiB download, best of ${ROUNDS * 3})`,
      unit: "MiB/s",
      higherIsBetter: true,
      ours: round(throughput.ours!),
      upstream: round(throughput.upstream!),
      direct: round(throughput.direct!),
      note: `ours/upstream ${round(throughput.ours! / throughput.upstream!, 2)}, ours/direct ${round(throughput.ours! / throughput.direct!, 2)}, upstream/direct ${round(throughput.upstream! / throughput.direct!, 2)}`,
    });

    // Connection setup under concurrency.
    const latency: Record<string, { p50: number; p95: number; wall: number }> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const peer of [{ name: "direct", build: null }, ...peers]) {
        const { each, wallMs } = await client(peer.build, "latency", echoPort, CONCURRENT_TUNNELS);
        const previous = latency[peer.name];
        // The round with the lowest median is kept: the least disturbed by other load.
        if (!previous || percentile(each, 50) < previous.p50) {
          latency[peer.name] = { p50: percentile(each, 50), p95: percentile(each, 95), wall: wallMs };
        }
      }
    }
    for (const key of ["p50", "p95"] as const) {
      metrics.push({
        name: `Tunnel setup latency, ${CONCURRENT_TUNNELS} concurrent (${key}, connect to first echoed byte, best of ${ROUNDS} rounds)`,
        unit: "ms",
        higherIsBetter: false,
        ours: round(latency.ours![key], 2),
        upstream: round(latency.upstream![key], 2),
        direct: round(latency.direct![key], 2),
        note: `ours/upstream ${round(latency.ours![key] / latency.upstream![key], 2)}`,
      });
    }
    metrics.push({
      name: `All ${CONCURRENT_TUNNELS} concurrent tunnels established and echoed (wall)`,
      unit: "ms",
      higherIsBetter: false,
      ours: round(latency.ours!.wall, 2),
      upstream: round(latency.upstream!.wall, 2),
      direct: round(latency.direct!.wall, 2),
    });

    // Start time per scope: build + spawn + exit + cleanup of /bin/true, median of START_RUNS.
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
    const directStarts: number[] = [];
    for (let i = 0; i < START_RUNS; i += 1)
      directStarts.push((await runTarget(null, "/bin/true", [], workspace, scopes[0]!.options)).ms);
    const direct = median(directStarts);
    for (const scope of scopes) {
      const figures: Record<string, { full: number; untilExit: number } | null> = {};
      const failures: string[] = [];
      // Peers alternate run by run, so a change in machine load hits both alike.
      const runs: Record<string, Run[]> = { ours: [], upstream: [] };
      const failed = new Set<string>();
      for (let i = 0; i < START_RUNS; i += 1) {
        for (const peer of peers) {
          if (failed.has(peer.name)) continue;
          const result = await runTarget(peer.build, "/bin/true", [], workspace, scope.options);
          if (result.code !== 0) {
            failures.push(`${peer.name}: exit ${result.code}, ${result.stderr.trim().split("\n")[0]}`);
            failed.add(peer.name);
            continue;
          }
          runs[peer.name]!.push(result);
        }
      }
      for (const peer of peers) {
        const list = runs[peer.name]!;
        figures[peer.name] = failed.has(peer.name)
          ? null
          : { full: median(list.map((r) => r.ms)), untilExit: median(list.map((r) => r.untilExitMs)) };
      }
      if (!figures.ours) throw new Error(`our sandbox did not start (${scope.name}): ${failures.join("; ")}`);
      for (const key of ["untilExit", "full"] as const) {
        const ours = figures.ours[key];
        const up = figures.upstream?.[key] ?? null;
        metrics.push({
          name: `Sandbox start, ${scope.name}: ${key === "full" ? "build + run /bin/true + cleanup" : "build + run /bin/true (until exit)"} (median of ${START_RUNS})`,
          unit: "ms",
          higherIsBetter: false,
          ours: round(ours, 2),
          upstream: up === null ? null : round(up, 2),
          direct: round(direct, 2),
          note:
            up === null
              ? `upstream does not start: ${failures.join("; ")}`
              : `ours/upstream ${round(ours / up, 2)}; over direct: ours +${round(ours - direct)} ms, upstream +${round(up - direct)} ms`,
        });
      }
    }
  } finally {
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
