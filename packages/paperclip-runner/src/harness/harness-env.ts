/**
 * Variables a harness gets from the daemon's environment without being asked:
 * enough to find programs and render text, nothing that is usually a credential.
 */
export const HARNESS_ENV_ALLOWLIST = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "USER",
  "LOGNAME",
];

export interface HarnessIdentity {
  readonly runId: string;
  readonly sessionId: string;
  readonly runnerId: string;
}

/**
 * Pure: the harness's whole environment. A secret reaches the harness only when
 * the launcher names it (`--harness-env NAME`); everything else in the daemon's
 * environment stays behind.
 */
export function buildHarnessEnv(
  parent: NodeJS.ProcessEnv,
  passThrough: readonly string[],
  identity: HarnessIdentity,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...HARNESS_ENV_ALLOWLIST, ...passThrough]) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  env.PAPERCLIP_RUN_ID = identity.runId;
  env.PAPERCLIP_SESSION_ID = identity.sessionId;
  env.PAPERCLIP_RUNNER_ID = identity.runnerId;
  return env;
}

/**
 * Values shorter than this are not masked in the harness's log tail: `1`, `true` or `prod`
 * would blank unrelated words, and a credential is longer.
 */
export const MIN_MASKED_VALUE_LENGTH = 8;

/**
 * Pure: the values of the variables the launcher passed through by name (a secret reaches the
 * harness only that way), longest first so a value holding another is masked whole. The log
 * tail masks them wherever they appear: a key with no recognisable shape is caught by value.
 */
export function passedValues(parent: NodeJS.ProcessEnv, passThrough: readonly string[]): string[] {
  const values = new Set<string>();
  for (const name of passThrough) {
    if (HARNESS_ENV_ALLOWLIST.includes(name)) continue;
    const value = parent[name];
    if (value !== undefined && value.length >= MIN_MASKED_VALUE_LENGTH) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}
