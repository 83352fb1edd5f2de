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
