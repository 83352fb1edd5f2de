import { RunnerError } from "@paperclipai/errors";
import { quotable, sortedKeys } from "./serde-shape.js";

/** The longest kind or field name a refusal quotes (upstream's bound on ids). */
const MAX_QUOTED_NAME = 240;

/** The provider kinds this runner executes, each through the Codex app-server facade. */
export type ExecutableProviderKind = "codex" | "opencode";

/** The driver each executable kind pairs with (upstream's `providerDescriptorSchema`). */
export const PROVIDER_DRIVERS: Readonly<Record<ExecutableProviderKind, string>> = {
  codex: "codex_app_server",
  opencode: "opencode_server",
};

/**
 * Upstream's kinds this runner does not execute, with what upstream's descriptor for each
 * takes (its `deny_unknown_fields` list, as upstream's refusal names it) and the words of
 * that refusal.
 */
const FOREIGN_KINDS: Readonly<
  Record<string, { readonly prefix: string; readonly fields: readonly string[] }>
> = {
  acpx: {
    prefix: "run.prepare ACPX provider is invalid",
    fields: [
      "kind",
      "provider",
      "driver",
      "providerVersion",
      "agent",
      "model",
      "acpxVersion",
      "agentServerPackage",
      "agentServerVersion",
      "agentRuntimePackage",
      "agentRuntimeVersion",
      "commandDigest",
      "sidecarCommand",
      "sidecarArgs",
      "runtimeDirectory",
      "normalizedSessionId",
      "runId",
      "cwd",
      "instructions",
      "permissionMode",
      "permissionModePinned",
      "runtimeContext",
    ],
  },
  claude_managed: {
    prefix: "Claude Managed provider descriptor is invalid",
    fields: [
      "model",
      "profileId",
      "anthropicAgentId",
      "agentVersion",
      "environmentId",
      "betaVersion",
      "maxSessionListCostUsd",
      "instructions",
      "runtimeContext",
    ],
  },
  aws_agentcore: {
    prefix: "AWS AgentCore provider descriptor is invalid",
    fields: [
      "model",
      "profileId",
      "region",
      "accountId",
      "harnessArn",
      "harnessVersion",
      "endpointArn",
      "endpointQualifier",
      "agentRuntimeArn",
      "memoryArn",
      "memoryId",
      "invocationRoleArn",
      "contextBucket",
      "contextPrefix",
      "contextKmsKeyArn",
      "qualificationRevision",
      "eventExpiryDays",
      "maxEstimatedSessionCostUsd",
      "maxIterations",
      "maxOutputTokens",
      "timeoutSeconds",
      "instructions",
      "runtimeContext",
    ],
  },
};
/** The keys a managed descriptor's selection reads before its profile is checked. */
const MANAGED_SELECTION_KEYS = new Set(["kind", "provider", "driver"]);

function unsupported(message: string, kind: string): RunnerError {
  return new RunnerError("ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED", message, {
    details: { kind: kind.slice(0, MAX_QUOTED_NAME) },
  });
}

/**
 * Pure: the executor kind `run.prepare.payload.provider.kind` selects, refused as
 * upstream's runner refuses it: no kind (or not a string), an unknown kind; for
 * upstream's other kinds (`acpx`, `claude_managed`, `aws_agentcore`), which this
 * runner does not execute, upstream's refusal of a descriptor carrying a key that
 * kind does not take (a Codex-shaped one), else upstream's unknown-kind words.
 */
export function executableProviderKind(provider: unknown): ExecutableProviderKind {
  const kind =
    provider !== null && typeof provider === "object"
      ? (provider as Record<string, unknown>).kind
      : undefined;
  if (kind === "codex" || kind === "opencode") return kind;
  if (typeof kind !== "string") {
    throw unsupported("run.prepare requires a supported provider kind before runner execution", "");
  }
  const foreign = Object.hasOwn(FOREIGN_KINDS, kind) ? FOREIGN_KINDS[kind] : undefined;
  if (foreign !== undefined) {
    const record = provider as Record<string, unknown>;
    const unknown = sortedKeys(record).find(
      (key) => !foreign.fields.includes(key) && !(kind !== "acpx" && MANAGED_SELECTION_KEYS.has(key)),
    );
    if (unknown !== undefined) {
      const expected = foreign.fields.map((field) => `\`${field}\``).join(", ");
      throw unsupported(
        `${foreign.prefix}: unknown field \`${quotable(unknown, MAX_QUOTED_NAME)}\`, expected one of ${expected}`,
        kind,
      );
    }
  }
  return unsupportedKind(kind);
}

/** Upstream's words for a kind no executor takes. */
function unsupportedKind(kind: string): never {
  throw unsupported(
    `provider kind ${quotable(kind, MAX_QUOTED_NAME)} is not executable through the local runnerd boundary`,
    kind,
  );
}
