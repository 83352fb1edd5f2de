import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { RunnerdFlagName } from "../cli/flag-definitions.js";
import { invalidArgument, missingArgument, type ParsedFlags } from "../cli/flags.js";
import { DEFAULT_COMMAND_HISTORY_LIMIT } from "../commands/admit-command.js";
import { loadScript } from "../harness/fake/load-script.js";
import {
  type OpencodeLaunchProfile,
  readOpencodeLaunchProfile,
} from "../provider/opencode-launch-profile.js";
import type { DurableIdentity } from "./durable-identity.js";
import type { OutboxLimits } from "./state/outbox.js";

export type DurableEndpoint =
  | { readonly mode: "connect"; readonly url: URL; readonly caBundle: Buffer | null }
  | { readonly mode: "listen"; readonly address: string; readonly port: number; readonly path: string };

/** Durable mode's configuration, checked before anything starts. */
export interface DurableOptions {
  readonly endpoint: DurableEndpoint;
  readonly stateDir: string;
  readonly identity: DurableIdentity;
  readonly runnerVersion: string;
  readonly runnerDigest: string;
  /** Our scripted harness's script, or null when the file given does not exist (the built-in script runs). */
  readonly fakeHarnessScript: string | null;
  readonly harnessCommand: { readonly command: string; readonly args: readonly string[] } | null;
  readonly outbox: OutboxLimits;
  readonly reconnectDelayMs: number;
  readonly reconnectGraceMs: number;
  /** 0 or absent: unlimited. */
  readonly maxLifetimeMs: number;
  /** Commands the journal holds; a new one past it is rejected (`--command-history-limit`). */
  readonly commandHistoryLimit: number;
  readonly lifecycleMode: "per_turn" | "warm";
  readonly idleTimeoutMs: number | null;
  /** Flags of providers this runner does not have, reported and ignored. */
  readonly ignoredProviderFlags: readonly string[];
  /** The runner-owned OpenCode launch profile (`--opencode-*`), or null when the server passed none. */
  readonly opencodeProfile: OpencodeLaunchProfile | null;
}

/** The flags that select durable mode. */
export const DURABLE_MODE_FLAGS = [
  "--connect-url",
  "--listen-address",
  "--listen-port",
  "--listen-path",
] as const;

export const PROVIDER_PROFILE_FLAGS = [
  "--acpx-launch-authority-digest",
  "--acpx-sidecar-command",
  "--acpx-sidecar-command-sha256",
  "--acpx-sidecar-script",
  "--acpx-sidecar-script-sha256",
  "--opencode-proxy-command",
  "--opencode-proxy-command-sha256",
  "--opencode-proxy-script",
  "--opencode-proxy-script-sha256",
  "--opencode-executable",
  "--opencode-executable-sha256",
] as const;

export const DEFAULT_MAX_OUTBOX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_P0_RESERVE_BYTES = 1024 * 1024;
export const DEFAULT_RECONNECT_DELAY_MS = 250;
export const DEFAULT_RECONNECT_GRACE_MS = 30_000;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export function isDurableMode(flags: ParsedFlags): boolean {
  return DURABLE_MODE_FLAGS.some((name) => flags.has(name));
}

export function readDurableOptions(flags: ParsedFlags): DurableOptions {
  const maxBytes = count(flags, "--max-outbox-bytes", DEFAULT_MAX_OUTBOX_BYTES, 1);
  const p0ReserveBytes = count(flags, "--p0-reserve-bytes", Math.min(DEFAULT_P0_RESERVE_BYTES, maxBytes), 0);
  if (p0ReserveBytes >= maxBytes)
    throw invalidArgument("--p0-reserve-bytes", "must be less than --max-outbox-bytes");
  const lifecycleMode = flags.value("--lifecycle-mode") ?? "per_turn";
  if (lifecycleMode !== "per_turn" && lifecycleMode !== "warm") {
    throw invalidArgument("--lifecycle-mode", "must be per_turn or warm");
  }
  const harnessCommand = flags.value("--harness-command");
  return {
    endpoint: readEndpoint(flags),
    stateDir: resolve(flags.required("--state-dir")),
    identity: {
      runnerInstanceId: flags.required("--runner-id"),
      environmentLeaseId: flags.required("--environment-lease-id"),
      runId: flags.required("--run-id"),
      normalizedSessionId: flags.required("--session-id"),
      turnId: flags.required("--turn-id"),
      itemId: flags.required("--item-id"),
    },
    runnerVersion: flags.required("--runner-version"),
    runnerDigest: flags.required("--runner-digest"),
    fakeHarnessScript: readScript(flags),
    harnessCommand:
      harnessCommand === undefined ? null : { command: harnessCommand, args: flags.all("--harness-arg") },
    outbox: { maxBytes, p0ReserveBytes },
    reconnectDelayMs: count(flags, "--reconnect-delay-ms", DEFAULT_RECONNECT_DELAY_MS, 0),
    reconnectGraceMs: count(flags, "--reconnect-grace-ms", DEFAULT_RECONNECT_GRACE_MS, 0),
    maxLifetimeMs: flags.has("--max-lifetime-ms")
      ? count(flags, "--max-lifetime-ms", 0, 0)
      : count(flags, "--max-runtime-ms", 0, 0),
    commandHistoryLimit: count(flags, "--command-history-limit", DEFAULT_COMMAND_HISTORY_LIMIT, 1),
    lifecycleMode,
    idleTimeoutMs: flags.has("--idle-timeout-ms") ? count(flags, "--idle-timeout-ms", 0, 0) : null,
    ignoredProviderFlags: PROVIDER_PROFILE_FLAGS.filter(
      (name) => name.startsWith("--acpx-") && flags.has(name),
    ),
    opencodeProfile: readOpencodeLaunchProfile((name) => flags.value(name)),
  };
}

function readEndpoint(flags: ParsedFlags): DurableEndpoint {
  const connect = flags.value("--connect-url");
  if (connect !== undefined) {
    if (flags.has("--listen-address") || flags.has("--listen-port") || flags.has("--listen-path")) {
      throw invalidArgument("--connect-url", "cannot be combined with the listen flags");
    }
    let url: URL;
    try {
      url = new URL(connect);
    } catch {
      throw invalidArgument("--connect-url", "is not a URL");
    }
    if (url.protocol === "ws:") {
      if (!LOOPBACK_HOSTS.has(url.hostname)) {
        throw invalidArgument("--connect-url", "ws:// is only allowed to a loopback host; use wss://");
      }
    } else if (url.protocol !== "wss:") {
      throw invalidArgument("--connect-url", "must be a ws:// (loopback) or wss:// URL");
    }
    const caPath = flags.value("--ca-bundle-path");
    if (caPath !== undefined && url.protocol !== "wss:") {
      throw invalidArgument("--ca-bundle-path", "only applies to a wss:// URL");
    }
    let caBundle: Buffer | null = null;
    if (caPath !== undefined) {
      try {
        caBundle = readFileSync(caPath);
      } catch (error) {
        throw invalidArgument(
          "--ca-bundle-path",
          `cannot read the CA bundle (${(error as { code?: string }).code ?? "error"})`,
        );
      }
    }
    return { mode: "connect", url, caBundle };
  }
  // Any address, 0.0.0.0 included, with plain ws://, unlike `--connect-url ws://`: the server
  // launches listen mode only for a sandbox's provider ingress, always as 0.0.0.0:43127 (upstream's
  // runner accepts nothing else), behind the provider's TLS. What the socket cannot protect the
  // channel does: a peer must prove the credential before anything is answered, every later frame
  // is sealed, bound to its session, direction and counter (test/mitm-relay-attacks.test.ts).
  const address = flags.value("--listen-address");
  if (address === undefined) throw missingArgument("--listen-address");
  const port = count(flags, "--listen-port", -1, 0);
  if (port < 0) throw missingArgument("--listen-port");
  if (port > 65_535) throw invalidArgument("--listen-port", "must be a TCP port");
  const path = flags.required("--listen-path");
  if (!path.startsWith("/")) throw invalidArgument("--listen-path", "must start with /");
  return { mode: "listen", address, port, path };
}

/**
 * The script for our scripted harness (either format `--script` takes); a path that does not
 * exist (the server passes one from its own package, which it does not ship) selects the built-in script.
 */
function readScript(flags: ParsedFlags): string | null {
  const path = flags.value("--fake-harness-script") ?? flags.value("--script");
  if (path === undefined || path === "") return null;
  const absolute = isAbsolute(path) ? path : resolve(path);
  if (!existsSync(absolute)) return null;
  const load = loadScript(absolute);
  if (!load.ok) throw invalidArgument("--fake-harness-script", load.reason);
  return absolute;
}

function count(flags: ParsedFlags, name: RunnerdFlagName, fallback: number, minimum: number): number {
  const text = flags.value(name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw invalidArgument(name, "must be a non-negative integer");
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < minimum)
    throw invalidArgument(name, `must be an integer of at least ${minimum}`);
  return value;
}
