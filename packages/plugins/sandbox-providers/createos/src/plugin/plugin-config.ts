import { CreateosError } from "@paperclipai/errors";
import { DEFAULT_API_URL, resolveApiOrigin } from "../client/api-url.js";
import { hostOwnedEntries, unknownKeys } from "./config-keys.js";
import { isCatalogShape, SHAPE_CATALOG } from "./shape-catalog.js";

/** The environment config of the `createos` driver, after defaults. */
export interface CreateosConfig {
  readonly apiUrl: string;
  readonly apiKey: string | undefined;
  readonly shape: string;
  readonly rootfs: string | undefined;
  readonly region: string | undefined;
  /** Release pauses the sandbox (to resume it later) instead of deleting it. */
  readonly reuseLease: boolean;
  /** Upstream's key: the deadline of a command the host sends without one. */
  readonly timeoutMs: number;
  readonly requestsPerMinute: number;
  readonly burst: number;
  readonly reconnectAttempts: number;
  readonly heartbeatTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly lifecycleTimeoutMs: number;
  readonly backoffBaseMs: number;
  readonly backoffCapMs: number;
}

interface NumberRule {
  readonly min: number;
  readonly max: number;
  readonly fallback: number;
}

const NUMBERS = {
  requestsPerMinute: { min: 1, max: 100_000, fallback: 240 },
  burst: { min: 1, max: 10_000, fallback: 20 },
  reconnectAttempts: { min: 0, max: 100, fallback: 6 },
  heartbeatTimeoutMs: { min: 100, max: 600_000, fallback: 15_000 },
  requestTimeoutMs: { min: 100, max: 600_000, fallback: 30_000 },
  lifecycleTimeoutMs: { min: 100, max: 3_600_000, fallback: 120_000 },
  backoffBaseMs: { min: 1, max: 60_000, fallback: 250 },
  backoffCapMs: { min: 1, max: 600_000, fallback: 8_000 },
} as const satisfies Record<string, NumberRule>;

/** Upstream's `timeoutMs`, with upstream's default, range and message. */
const TIMEOUT = { min: 1, max: 86_400_000, fallback: 300_000 } as const;
const TIMEOUT_PROBLEM = `timeoutMs must be an integer between ${TIMEOUT.min} and ${TIMEOUT.max}.`;

const STRINGS = ["apiUrl", "apiKey", "shape", "rootfs", "region"] as const;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,199}$/;

export type ConfigParse =
  | { readonly ok: true; readonly config: CreateosConfig; readonly warnings: string[] }
  | { readonly ok: false; readonly problems: string[] };

/**
 * `"validate"` (saving an environment) refuses a key that looks like a misspelt plugin key
 * and warns about other unknown keys; `"runtime"` (every other hook) ignores unknown keys,
 * because the host merges its own flags and the lease record into the config it passes.
 */
export type ConfigMode = "validate" | "runtime";

const quoted = (key: string): string => `"${key.slice(0, 60)}"`;

/** Problems refuse the config; warnings are reported with a valid one. Each step appends in the order it checks. */
interface Findings {
  readonly problems: string[];
  readonly warnings: string[];
}

type ConfigStrings = Partial<Record<(typeof STRINGS)[number], string>>;

/** Checks a raw config; every problem is listed, none quotes the API key. */
export function parseConfig(
  raw: Record<string, unknown> | undefined,
  env: NodeJS.ProcessEnv = process.env,
  mode: ConfigMode = "validate",
): ConfigParse {
  const value = raw ?? {};
  const findings: Findings = { problems: [], warnings: [] };
  if (mode === "validate") checkUnknownKeys(value, findings);
  const strings = readStrings(value, findings);
  checkShape(value, strings, mode, findings);
  const apiUrl = checkApi(strings, env, findings);
  const numbers = readNumbers(value, findings);
  const timeoutMs = readTimeout(value, findings);
  if (numbers.requestsPerMinute > 300)
    findings.warnings.push("requestsPerMinute above 300 exceeds the CreateOS rate limit");
  const reuseLease = value.reuseLease ?? false;
  if (typeof reuseLease !== "boolean") findings.problems.push("reuseLease must be a boolean");
  if (findings.problems.length > 0) return { ok: false, problems: findings.problems };
  return {
    ok: true,
    warnings: findings.warnings,
    config: {
      apiUrl,
      apiKey: strings.apiKey,
      shape: strings.shape ?? "",
      rootfs: strings.rootfs,
      region: strings.region,
      reuseLease: reuseLease === true,
      timeoutMs,
      ...numbers,
    },
  };
}

/** A misspelt plugin key is a problem; any other unknown key is a warning. */
function checkUnknownKeys(value: Record<string, unknown>, findings: Findings): void {
  for (const unknown of unknownKeys(value)) {
    if (unknown.kind === "misspelt")
      findings.problems.push(`unknown key ${quoted(unknown.key)} (did you mean "${unknown.meant}"?)`);
    else findings.warnings.push(`unknown key ${quoted(unknown.key)} is ignored`);
  }
}

/** The string keys that are set (an empty string is unset); names must be name characters. */
function readStrings(value: Record<string, unknown>, findings: Findings): ConfigStrings {
  const strings: ConfigStrings = {};
  for (const key of STRINGS) {
    const item = value[key];
    if (item === undefined || item === null || item === "") continue;
    if (typeof item !== "string") findings.problems.push(`${key} must be a string`);
    else strings[key] = item;
  }
  for (const key of ["shape", "rootfs", "region"] as const) {
    const item = strings[key];
    if (item !== undefined && !NAME.test(item))
      findings.problems.push(`${key} must be 1-200 name characters`);
  }
  return strings;
}

/** Upstream's rule and text: no default shape (a guessed one is not in the catalog). */
function checkShape(
  value: Record<string, unknown>,
  strings: ConfigStrings,
  mode: ConfigMode,
  findings: Findings,
): void {
  if (value.shape === undefined || value.shape === null || value.shape === "")
    findings.problems.push("CreateOS requires a shape from its shape catalog.");
  else if (strings.shape !== undefined && mode === "validate" && !isCatalogShape(strings.shape))
    findings.warnings.push(
      `shape "${strings.shape.slice(0, 60)}" is not in the CreateOS shape catalog (${SHAPE_CATALOG[0]} … ${SHAPE_CATALOG.at(-1)})`,
    );
}

/** The API URL (default applied) and whether a usable API key comes with it. */
function checkApi(strings: ConfigStrings, env: NodeJS.ProcessEnv, findings: Findings): string {
  const apiUrl = strings.apiUrl ?? DEFAULT_API_URL;
  let origin: string | undefined;
  try {
    origin = resolveApiOrigin(apiUrl);
  } catch (error) {
    findings.problems.push((error as Error).message);
  }
  if (origin !== undefined && strings.apiKey === undefined) {
    if (origin !== DEFAULT_API_URL) findings.problems.push("apiKey is required for a custom apiUrl");
    else if (!env.CREATEOS_API_KEY)
      findings.problems.push("apiKey is required (or CREATEOS_API_KEY for the default apiUrl)");
  }
  if (strings.apiKey !== undefined && !/^[\x21-\x7e]{1,4096}$/.test(strings.apiKey)) {
    findings.problems.push("apiKey has characters a header cannot carry");
  }
  return apiUrl;
}

const isIntegerIn = (item: unknown, rule: NumberRule): item is number =>
  typeof item === "number" && Number.isInteger(item) && item >= rule.min && item <= rule.max;

/** The tuning numbers, each defaulted when unset or out of range (the latter also a problem). */
function readNumbers(
  value: Record<string, unknown>,
  findings: Findings,
): Record<keyof typeof NUMBERS, number> {
  const numbers = {} as Record<keyof typeof NUMBERS, number>;
  for (const [key, rule] of Object.entries(NUMBERS) as Array<[keyof typeof NUMBERS, NumberRule]>) {
    const item = value[key];
    if (item === undefined || item === null) {
      numbers[key] = rule.fallback;
    } else if (!isIntegerIn(item, rule)) {
      findings.problems.push(`${key} must be an integer from ${rule.min} to ${rule.max}`);
      numbers[key] = rule.fallback;
    } else {
      numbers[key] = item;
    }
  }
  return numbers;
}

/** Upstream's `timeoutMs`, defaulted when unset. */
function readTimeout(value: Record<string, unknown>, findings: Findings): number {
  const rawTimeout = value.timeoutMs;
  if (rawTimeout === undefined || rawTimeout === null) return TIMEOUT.fallback;
  if (isIntegerIn(rawTimeout, TIMEOUT)) return rawTimeout;
  findings.problems.push(TIMEOUT_PROBLEM);
  return TIMEOUT.fallback;
}

/**
 * What the host stores for a valid config: every plugin key with its default applied (the
 * host reads `timeoutMs` for its own RPC deadlines), plus the host's own flags unchanged.
 * Unknown keys are dropped.
 */
export function normalizedConfig(
  config: CreateosConfig,
  raw: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const plugin = Object.fromEntries(Object.entries(config).filter(([, item]) => item !== undefined));
  return { ...hostOwnedEntries(raw ?? {}), ...plugin };
}

/** The runtime config of a hook, or `ERR_CREATEOS_INVALID_CONFIG` with every problem. */
export function requireConfig(
  raw: Record<string, unknown> | undefined,
  env?: NodeJS.ProcessEnv,
): CreateosConfig {
  const parsed = parseConfig(raw, env, "runtime");
  if (parsed.ok) return parsed.config;
  throw new CreateosError(
    "ERR_CREATEOS_INVALID_CONFIG",
    `CreateOS environment config is invalid: ${parsed.problems.join("; ")}`,
    {
      details: { problems: parsed.problems },
    },
  );
}
