import { CreateosError } from "@paperclipai/errors";

/** The hosted CreateOS API; the only origin that may fall back to `CREATEOS_API_KEY`. */
export const DEFAULT_API_URL = "https://api.sb.createos.sh";

const API_URL_MESSAGE =
  "CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function invalidApiUrl(): CreateosError {
  return new CreateosError("ERR_CREATEOS_API_URL", API_URL_MESSAGE);
}

/** Reduces a configured API URL to its origin; every call then goes to `${origin}/v1${path}`. */
export function resolveApiOrigin(apiUrl: unknown = DEFAULT_API_URL): string {
  if (typeof apiUrl !== "string" || apiUrl.trim() !== apiUrl || apiUrl === "") throw invalidApiUrl();
  // `new URL` drops an empty `?` or `#`, so look at the raw text for them.
  if (apiUrl.includes("?") || apiUrl.includes("#")) throw invalidApiUrl();
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw invalidApiUrl();
  }
  if (url.username !== "" || url.password !== "" || apiUrl.includes("@")) throw invalidApiUrl();
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    throw invalidApiUrl();
  }
  if (!["/", "/v1", "/v1/"].includes(url.pathname)) throw invalidApiUrl();
  return url.origin;
}

/**
 * The key from config, else `CREATEOS_API_KEY` for the default origin only: a key meant
 * for the hosted service must never be sent to an origin someone else configured.
 */
export function resolveApiKey(origin: string, configuredKey: unknown, env: NodeJS.ProcessEnv): string {
  if (typeof configuredKey === "string" && configuredKey !== "") return checkedKey(configuredKey);
  const fromEnv = env.CREATEOS_API_KEY;
  if (origin === DEFAULT_API_URL && typeof fromEnv === "string" && fromEnv !== "") return checkedKey(fromEnv);
  throw new CreateosError(
    "ERR_CREATEOS_API_KEY_MISSING",
    "A CreateOS API key is required (config apiKey, or CREATEOS_API_KEY for the default API URL).",
  );
}

function checkedKey(key: string): string {
  // A header value with control characters would make fetch throw a TypeError that names the value.
  if (!/^[\x21-\x7e]{1,4096}$/.test(key)) {
    throw new CreateosError(
      "ERR_CREATEOS_API_KEY_INVALID",
      "The CreateOS API key has characters a header cannot carry.",
    );
  }
  return key;
}
