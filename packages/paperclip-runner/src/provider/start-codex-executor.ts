import type { DurableOptions } from "../durable/durable-options.js";
import type { EngineEvent } from "../durable/engine/durable-engine.js";
import { CodexExecutor } from "./codex-executor.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import { checkOpencodeLaunch, verifiedOpencodeLaunch } from "./opencode-launch-profile.js";
import { providerEnvironment } from "./provider-environment.js";
import type { ProviderSpawnSpec } from "./provider-process.js";

/** How long one JSON-RPC request to the provider may take (upstream's bound). */
export const DEFAULT_PROVIDER_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The Codex executor durable mode binds for a `codex` or `opencode` run: the
 * provider started with upstream's environment allowlist, and an OpenCode launch
 * checked against the runner's launch profile.
 */
export function codexExecutor(
  options: DurableOptions,
  lastEventSeq: number,
  recovered: CodexProviderState | null,
  onEvent: (event: EngineEvent) => Promise<void>,
): CodexExecutor {
  const spawnSpec = (state: CodexProviderState): ProviderSpawnSpec => {
    const { config } = state;
    const env = providerEnvironment(config.kind, process.env);
    if (config.kind !== "opencode")
      return { command: config.command, args: config.args, cwd: config.cwd, env };
    return {
      ...verifiedOpencodeLaunch(options.opencodeProfile, config, options.stateDir),
      cwd: config.cwd,
      env,
    };
  };
  return new CodexExecutor({
    stateDir: options.stateDir,
    identity: options.identity,
    lastEventSeq,
    onEvent,
    recovered,
    session: { spawnSpec, requestTimeoutMs: requestTimeoutMs(process.env) },
    checkLaunchProfile: (state) => {
      if (state.config.kind === "opencode") checkOpencodeLaunch(options.opencodeProfile, state.config);
    },
  });
}

/** `PAPERCLIP_RUNNER_PROVIDER_REQUEST_TIMEOUT_MS` (a positive integer), else upstream's 30 s. */
export function requestTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.PAPERCLIP_RUNNER_PROVIDER_REQUEST_TIMEOUT_MS);
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_PROVIDER_REQUEST_TIMEOUT_MS;
}
