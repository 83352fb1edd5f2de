import { RunnerError } from "@paperclipai/errors";

/** The provider kinds this runner executes, each through the Codex app-server facade. */
export type ExecutableProviderKind = "codex" | "opencode";

/** The driver each executable kind pairs with (upstream's `providerDescriptorSchema`). */
export const PROVIDER_DRIVERS: Readonly<Record<ExecutableProviderKind, string>> = {
  codex: "codex_app_server",
  opencode: "opencode_server",
};

/**
 * Pure: the executor kind `run.prepare.payload.provider.kind` selects. Upstream's
 * other kinds (`acpx`, `claude_managed`, `aws_agentcore`) and anything unknown are
 * refused with upstream's own message, so the server shows the same failure.
 */
export function executableProviderKind(kind: unknown): ExecutableProviderKind {
  if (kind === "codex" || kind === "opencode") return kind;
  const shown = typeof kind === "string" ? kind : JSON.stringify(kind ?? null);
  throw new RunnerError(
    "ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED",
    `provider kind ${shown} is not executable through the local runnerd boundary`,
    { details: { kind: shown.slice(0, 240) } },
  );
}
