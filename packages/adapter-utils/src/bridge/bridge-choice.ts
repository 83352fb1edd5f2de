import { SandboxError } from "@paperclipai/errors";

/** Which in-sandbox bridge a caller asks for: `auto` prefers the native one and falls back to Node. */
export type SandboxBridgePreference = "auto" | "native" | "node";

/** The env variable that sets the preference when the `networkBridge` option does not. */
export const SANDBOX_BRIDGE_ENV = "PAPERCLIP_SANDBOX_BRIDGE";

export interface ResolvedBridgePreference {
  readonly preference: SandboxBridgePreference;
  readonly source: "option" | "env" | "default";
}

/** What probing the native bridge binary found. */
export type NativeBridgeProbe =
  | { readonly status: "ok"; readonly path: string }
  | {
      readonly status: "missing" | "failed" | "unsupported";
      readonly path: string | null;
      readonly detail: string;
    };

export interface BridgeChoice {
  readonly kind: "native" | "node";
  /** The binary to start, when `kind` is `native`. */
  readonly nativePath: string | null;
  /** Why this bridge, in words a user can act on (`paperclip-sandbox doctor` prints it). */
  readonly reason: string;
}

const PREFERENCES: readonly SandboxBridgePreference[] = ["auto", "native", "node"];

function isPreference(value: unknown): value is SandboxBridgePreference {
  return PREFERENCES.includes(value as SandboxBridgePreference);
}

/** The `networkBridge` option wins over `PAPERCLIP_SANDBOX_BRIDGE`; unset or empty means `auto`. */
export function resolveBridgePreference(
  option: unknown,
  envValue: string | undefined,
): ResolvedBridgePreference {
  if (option !== undefined && option !== null && option !== "") {
    if (!isPreference(option)) {
      throw new SandboxError(
        "ERR_SANDBOX_BRIDGE_CHOICE_INVALID",
        'networkBridge must be "auto", "native" or "node".',
        {
          details: {
            source: "option",
            value: typeof option === "string" ? option.slice(0, 40) : typeof option,
          },
        },
      );
    }
    return { preference: option, source: "option" };
  }
  const fromEnv = envValue?.trim();
  if (fromEnv) {
    if (!isPreference(fromEnv)) {
      throw new SandboxError(
        "ERR_SANDBOX_BRIDGE_CHOICE_INVALID",
        `${SANDBOX_BRIDGE_ENV} must be "auto", "native" or "node".`,
        { details: { source: "env", value: fromEnv.slice(0, 40) } },
      );
    }
    return { preference: fromEnv, source: "env" };
  }
  return { preference: "auto", source: "default" };
}

function describeSource(resolved: ResolvedBridgePreference): string {
  return resolved.source === "option"
    ? `networkBridge: "${resolved.preference}"`
    : `${SANDBOX_BRIDGE_ENV}=${resolved.preference}`;
}

/**
 * The bridge a run uses. `node` never needs the probe; `native` fails, coded,
 * when the binary cannot run; `auto` takes the native bridge when it runs and
 * otherwise the Node bridge, saying why.
 */
export function chooseBridge(
  resolved: ResolvedBridgePreference,
  probe: NativeBridgeProbe | null,
): BridgeChoice {
  if (resolved.preference === "node") {
    return {
      kind: "node",
      nativePath: null,
      reason: `the Node bridge was asked for (${describeSource(resolved)})`,
    };
  }
  if (probe?.status === "ok") {
    const asked = resolved.source === "default" ? "" : ` (${describeSource(resolved)})`;
    return {
      kind: "native",
      nativePath: probe.path,
      reason: `the native bridge for ${process.platform}-${process.arch} runs: ${probe.path}${asked}`,
    };
  }
  const detail = probe ? probe.detail : "was not probed";
  if (resolved.preference === "native") {
    throw new SandboxError(
      "ERR_SANDBOX_NATIVE_BRIDGE_UNAVAILABLE",
      `The native sandbox bridge was asked for (${describeSource(resolved)}) but cannot be used: it ${detail}.`,
      { details: { path: probe?.path ?? null, status: probe?.status ?? "unprobed" } },
    );
  }
  return {
    kind: "node",
    nativePath: null,
    reason: `the native bridge ${detail}; the Node bridge is used instead`,
  };
}
