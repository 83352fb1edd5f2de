// The peers the sandbox suite compares: our sandbox, upstream's, and the direct (unsandboxed) path.
import * as ours from "@paperclipai/adapter-utils/local-process-sandbox";
import * as upstream from "upstream-adapter-utils/local-process-sandbox";
import * as upstreamServerUtils from "upstream-adapter-utils/server-utils";

export type PeerName = "direct" | "ours" | "upstream";
export type SandboxPeerName = Exclude<PeerName, "direct">;

/** A package's sandbox: builds the spawn target that runs `executable` inside it. */
export type Build = (input: {
  executable: string;
  args: string[];
  cwd: string;
  options: ours.LocalProcessSandboxOptions;
}) => Promise<ours.LocalProcessSandboxSpawnTarget>;

const sandboxPeers: { name: SandboxPeerName; build: Build }[] = [
  { name: "ours", build: ours.buildLocalProcessSandboxSpawnTarget },
  { name: "upstream", build: upstream.buildLocalProcessSandboxSpawnTarget as Build },
];

/** Every peer as a spawn target builder; `direct` has none (the program runs unsandboxed). */
export const networkPeers: { name: PeerName; build: Build | null }[] = [
  { name: "direct", build: null },
  ...sandboxPeers,
];

type RunChild = typeof ours.runChildProcess;
/** The spawn helpers (upstream's lives in its server-utils module); `direct` runs the same helper unsandboxed. */
export const spawnHelpers: { name: PeerName; run: RunChild }[] = [
  { name: "direct", run: ours.runChildProcess },
  { name: "ours", run: ours.runChildProcess },
  { name: "upstream", run: upstreamServerUtils.runChildProcess as RunChild },
];

/** The network-only allowlist scope, letting the sandbox reach one loopback port. */
export const allowlistScope = (workspace: string, port: number): ours.LocalProcessSandboxOptions => ({
  workspaceDir: workspace,
  networkScope: "allowlist",
  networkAllowlist: [`127.0.0.1:${port}`],
});
