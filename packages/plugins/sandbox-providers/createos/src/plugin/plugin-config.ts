import { CreateosError } from "@paperclipai/errors";
import { DEFAULT_API_URL, resolveApiOrigin } from "../client/api-url.js";

/** The environment config of the `createos` driver, after defaults. */
export interface CreateosConfig {
  readonly apiUrl: string;
  readonly apiKey: string | undefined;
  readonly shape: string;
  readonly rootfs: string | undefined;
  readonly region: string | undefined;
  /** Release pauses the sandbox (to resume it later) instead of deleting it. */
  readonly reuseLease: boolean;
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

const STRINGS = ["apiUrl", "apiKey", "shape", "rootfs", "region"] as const;
const KNOWN = new Set<string>([...STRINGS, "reuseLease", ...Object.keys(NUMBERS)]);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,199}$/;

export type ConfigParse =
  | { readonly ok: true; readonly config: CreateosConfig; readonly warnings: string[] }
  | { readonly ok: false; readonly problems: string[] };

/** Checks a raw config; every problem is listed, none quotes the API key. */
export function parseConfig(
  raw: Record<string, unknown> | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ConfigParse {
  const value = raw ?? {};
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const key of Object.keys(value)) {
    if (!KNOWN.has(key)) problems.push(`unknown key "${key.slice(0, 60)}"`);
  }
  const strings: Partial<Record<(typeof STRINGS)[number], string>> = {};
  for (const key of STRINGS) {
    const item = value[key];
    if (item === undefined || item === null || item === "") continue;
    if (typeof item !== "string") problems.push(`${key} must be a string`);
    else strings[key] = item;
  }
  for (const key of ["shape", "rootfs", "region"] as const) {
    const item = strings[key];
    if (item !== undefined && !NAME.test(item)) problems.push(`${key} must be 1-200 name characters`);
  }
  const apiUrl = strings.apiUrl ?? DEFAULT_API_URL;
  let origin: string | undefined;
  try {
    origin = resolveApiOrigin(apiUrl);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (origin !== undefined && strings.apiKey === undefined) {
    if (origin !== DEFAULT_API_URL) problems.push("apiKey is required for a custom apiUrl");
    else if (!env.CREATEOS_API_KEY)
      problems.push("apiKey is required (or CREATEOS_API_KEY for the default apiUrl)");
  }
  if (strings.apiKey !== undefined && !/^[\x21-\x7e]{1,4096}$/.test(strings.apiKey)) {
    problems.push("apiKey has characters a header cannot carry");
  }
  const numbers = {} as Record<keyof typeof NUMBERS, number>;
  for (const [key, rule] of Object.entries(NUMBERS) as Array<[keyof typeof NUMBERS, NumberRule]>) {
    const item = value[key];
    if (item === undefined || item === null) {
      numbers[key] = rule.fallback;
    } else if (typeof item !== "number" || !Number.isInteger(item) || item < rule.min || item > rule.max) {
      problems.push(`${key} must be an integer from ${rule.min} to ${rule.max}`);
      numbers[key] = rule.fallback;
    } else {
      numbers[key] = item;
    }
  }
  if (numbers.requestsPerMinute > 300)
    warnings.push("requestsPerMinute above 300 exceeds the CreateOS rate limit");
  const reuseLease = value.reuseLease ?? false;
  if (typeof reuseLease !== "boolean") problems.push("reuseLease must be a boolean");
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    warnings,
    config: {
      apiUrl,
      apiKey: strings.apiKey,
      shape: strings.shape ?? "small",
      rootfs: strings.rootfs,
      region: strings.region,
      reuseLease: reuseLease === true,
      ...numbers,
    },
  };
}

/** The config or `ERR_CREATEOS_INVALID_CONFIG` with every problem. */
export function requireConfig(
  raw: Record<string, unknown> | undefined,
  env?: NodeJS.ProcessEnv,
): CreateosConfig {
  const parsed = parseConfig(raw, env);
  if (parsed.ok) return parsed.config;
  throw new CreateosError(
    "ERR_CREATEOS_INVALID_CONFIG",
    `CreateOS environment config is invalid: ${parsed.problems.join("; ")}`,
    {
      details: { problems: parsed.problems },
    },
  );
}
