// The sandbox suite's start measurements: /bin/true through each peer's sandbox per scope, and
// through each package's spawn helper, interleaved with direct starts.
import type { LocalProcessSandboxOptions } from "@paperclipai/adapter-utils/local-process-sandbox";
import { rotate, START_RUNS } from "./interleaving.js";
import { allowlistScope, networkPeers, type PeerName, type SandboxPeerName, spawnHelpers } from "./peers.js";
import { type Run, runTarget } from "./run-target.js";
import { median } from "./statistics.js";

export interface StartScope {
  name: string;
  options: LocalProcessSandboxOptions;
}

/** The scopes whose start is measured; `allowlistPort` is the one loopback port the allowlist lets through. */
export const startScopes = (workspace: string, allowlistPort: number): StartScope[] => [
  { name: "network deny", options: { workspaceDir: workspace, networkScope: "deny" } },
  { name: "network allowlist", options: allowlistScope(workspace, allowlistPort) },
  { name: "workspace", options: { workspaceDir: workspace, filesystemScope: "workspace" } },
  {
    name: "workspace + deny",
    options: { workspaceDir: workspace, filesystemScope: "workspace", networkScope: "deny" },
  },
  {
    name: "workspace + allowlist",
    options: { ...allowlistScope(workspace, allowlistPort), filesystemScope: "workspace" },
  },
];

/** Medians of one sandbox's starts: with cleanup (`ms`) and until the program exited. */
export interface StartMedians {
  ms: number;
  untilExitMs: number;
}

export interface StartFigures {
  scope: string;
  /** Median of the direct (unsandboxed) starts, cleanup included. */
  direct: number;
  ours: StartMedians;
  /** Null when upstream's sandbox does not start this scope. */
  upstream: StartMedians | null;
  /** Why a sandbox did not start (its first start's exit and first stderr line). */
  failures: string[];
}

/**
 * START_RUNS rounds of build + spawn + exit (+ cleanup) of /bin/true per peer. Direct starts are
 * interleaved with the sandboxed ones, so all three see the same load. A peer that fails once
 * is not started again; our failing is an error.
 */
export async function measureSandboxStarts(workspace: string, scope: StartScope): Promise<StartFigures> {
  const directStarts: number[] = [];
  const runs: Record<SandboxPeerName, Run[]> = { ours: [], upstream: [] };
  const failures: string[] = [];
  const failed = new Set<string>();
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
  const medians = (name: SandboxPeerName): StartMedians | null =>
    failed.has(name)
      ? null
      : {
          ms: median(runs[name].map((r) => r.ms)),
          untilExitMs: median(runs[name].map((r) => r.untilExitMs)),
        };
  const ours = medians("ours");
  if (ours === null) throw new Error(`our sandbox did not start (${scope.name}): ${failures.join("; ")}`);
  return { scope: scope.name, direct: median(directStarts), ours, upstream: medians("upstream"), failures };
}

/**
 * The same starts through each package's spawn helper, as adapters run them (env from the host
 * process): median time until the helper returns, per peer.
 */
export async function measureSpawnHelperStarts(
  workspace: string,
  scope: StartScope,
): Promise<Record<PeerName, number>> {
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
  return { direct: median(times.direct), ours: median(times.ours), upstream: median(times.upstream) };
}
