/**
 * What a key's value is, judged by the key's name:
 * - `password`: always a secret, however short (`password`, `client_secret`, `api_key`).
 * - `credential`: a secret unless it is a number, a flag, an enum word or prose (`token`, `authorization`).
 * - `collection`: a plural (`tokens`, `credentials`): a count or a list more often than a secret.
 * - `registry-auth`: a bare `auth` key, a secret when it holds base64 (`"auth": "dXNlcjpwYXNz"`).
 */
export type KeyKind = "password" | "credential" | "collection" | "registry-auth";

const STRENGTH: Record<KeyKind, number> = { "registry-auth": 0, collection: 1, credential: 2, password: 3 };

const SEGMENT = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

// A key segment after the sensitive word that makes the key describe a secret, not hold one.
const DESCRIPTORS = new Set(
  (
    "type types kind count counts name names label url uri urls endpoint path file files dir directory " +
    "policy length len limit limits size usage used remaining max min total budget rate per ttl expiry " +
    "expires expiration expired at version format prefix suffix hint source provider env ref field header " +
    "mode status method scope scopes rotation rotated manager store required enabled present valid set " +
    // `--password-stdin`, `--cookie-jar`: where the secret comes from or goes, not the secret.
    "stdin jar helper " +
    "exists configured index idx position pos description help"
  ).split(" "),
);
// A segment before `token` that makes it a cursor or a model vocabulary entry, not a credential.
const NON_CREDENTIAL_TOKENS = new Set(
  (
    "page next continuation cancellation sync resume idempotency pagination cursor max input output " +
    "total prompt completion cached cache reasoning num context eos bos pad unk sep cls mask special stop " +
    "end start"
  ).split(" "),
);
// A segment before `key` that makes it a secret key (`api_key`, `AccountKey`, `secretAccessKey`).
const KEY_QUALIFIERS = new Set(
  "api private access account secret signing encryption master client auth app license deploy".split(" "),
);
// A segment before `key` that makes it a database, cache or map key, not a secret (`primary_key`).
const NON_SECRET_KEY_QUALIFIERS = new Set(
  (
    "primary foreign sort partition cache idempotency dedup dedupe lookup map hash object cursor row " +
    "composite unique shard routing group message public pub hot natural schema sequence bucket idx " +
    "index search order range hotkey press board short long s3 storage file redis"
  ).split(" "),
);
const SECRET_KEY_WORDS = [...KEY_QUALIFIERS].map((qualifier) => `${qualifier}key`);

function kindOfSegment(segment: string, previous: string | undefined): KeyKind | null {
  const plural = segment.endsWith("s");
  if (/(?:password|passwd|passphrase)s?$/.test(segment)) return plural ? "collection" : "password";
  // `PWD=` is also the shell's working directory: a path after it is kept (see key-assignments).
  if (segment === "pwd") return "password";
  // `pass=12 fail=0` counts tests; `DB_PASS=s3cret` is a password.
  if (segment === "pass") return "collection";
  if (/secrets?$/.test(segment)) return plural ? "collection" : "password";
  if (/connectionstrings?$/.test(segment)) return "password";
  if (segment === "string" && previous === "connection") return "password";
  if (segment === "key" || segment === "keys") {
    if (previous === undefined || NON_SECRET_KEY_QUALIFIERS.has(previous)) return null;
    // `api_key`, `AccountKey`; a provider's key (`ADAFRUIT_KEY`, `DD_APP_KEY`) is judged by its value.
    if (!KEY_QUALIFIERS.has(previous)) return plural ? "collection" : "credential";
    return plural ? "collection" : "password";
  }
  if (segment === "creds") return "credential";
  // A personal access token with no prefix of its own (`AZURE_DEVOPS_EXT_PAT`, `GITHUB_PAT`).
  if (segment === "pat" || segment === "pats") return segment === "pats" ? "collection" : "credential";
  // Bundler's credentials for a gem host (`BUNDLE_GEMS__CONTRIBSYS__COM=user:pass`, Sidekiq's).
  if (segment === "contribsys") return "credential";
  // `SONAR_LOGIN` holds a SonarQube token; elsewhere a login is a user name.
  if (segment === "login" && previous === "sonar") return "credential";
  // A named session cookie (`_gitlab_session`, `user_session`); a bare `session` is a word.
  if (segment === "session" && previous !== undefined) return "credential";
  if (SECRET_KEY_WORDS.some((word) => segment === word || segment === `${word}s`)) {
    return plural ? "collection" : "password";
  }
  if (/tokens?$/.test(segment)) {
    if (segment.length <= 6 && previous !== undefined && NON_CREDENTIAL_TOKENS.has(previous)) return null;
    return plural ? "collection" : "credential";
  }
  if (/(?:credential|cookie|ticket)s?$/.test(segment)) return plural ? "collection" : "credential";
  if (/(?:authorization|signature|jwt)$/.test(segment) || segment === "sig") return "credential";
  if (segment === "auth") return "registry-auth";
  return null;
}

/** Lowercase words of a key: `OPENAI_API_KEY` → openai api key; `proxyAuthorization` → proxy authorization. */
export function keySegments(key: string): string[] {
  return (key.match(SEGMENT) ?? []).map((segment) => segment.toLowerCase());
}

// Logs repeat the same few keys; judging each once keeps a dense log fast. A map, not slots
// hashed by hand from a few characters: until V8 optimises the key pass (the first megabyte a
// process redacts) each character read is a call, and the engine's hash of a short key cost a
// first redaction a twentieth less. Emptied when full: a log's keys come back soon after.
const MAX_CACHED_KEYS = 4096;
const cachedKinds = new Map<string, KeyKind | null>();

const AUTHORIZATION_KEY = /authorization$/i;
/**
 * Whether a key names an Authorization header, whose value may follow a provider's own scheme.
 * Its length and last letter first: most keys are shorter, or end in another letter than its `n`.
 */
export const mayNameAuthorization = (key: string): boolean =>
  key.length >= 13 && (key.charCodeAt(key.length - 1) | 0x20) === 110 && AUTHORIZATION_KEY.test(key);

/** The kind of a key's value, or null when the key does not name a secret. */
export function kindOfKey(key: string): KeyKind | null {
  const cached = cachedKinds.get(key);
  if (cached !== undefined) return cached;
  const kind = judgeKey(key);
  if (cachedKinds.size >= MAX_CACHED_KEYS) cachedKinds.clear();
  cachedKinds.set(key, kind);
  return kind;
}

/**
 * The kind of a key's value where it is assigned: `?key=…` in a URL is an API key (Google's, among
 * others); elsewhere `key` is just a key. Its length first: most keys are not three letters.
 */
export const kindOfAssignedKey = (key: string, inQuery: boolean): KeyKind | null =>
  inQuery && key.length === 3 && key.toLowerCase() === "key" ? "credential" : kindOfKey(key);

const LETTER_SEGMENT = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g;

/**
 * `cOoKiE`, `pAsSwOrD`, `aPi_KeY`: case that alternates splits a key into humps of one or two
 * letters. camelCase (`isApiKey`, `myAPIKey`) has at most the odd short word.
 */
function isOddlyCased(key: string): boolean {
  const segments = key.match(LETTER_SEGMENT) ?? [];
  let short = 0;
  for (const segment of segments) if (segment.length <= 2) short += 1;
  return short >= 2 && short * 2 >= segments.length;
}

function judgeKey(key: string): KeyKind | null {
  const kind = judgeSegments(keySegments(key));
  // Header names are caseless: a key in odd casing is judged as its lowercase spelling.
  if (kind === null && isOddlyCased(key)) return judgeSegments(keySegments(key.toLowerCase()));
  return kind;
}

function judgeSegments(segments: readonly string[]): KeyKind | null {
  let kind: KeyKind | null = null;
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] as string;
    if (kind !== null && DESCRIPTORS.has(segment)) return null;
    const found = kindOfSegment(segment, segments[index - 1]);
    // The strongest word decides: `client_secret_token` is a secret, `auth_token` a token.
    if (found !== null && (kind === null || STRENGTH[found] > STRENGTH[kind])) kind = found;
  }
  return kind;
}
