import { DEFAULT_PATH } from "./resolve-command-path.js";

/** Per-run `PAPERCLIP_*` variables are generated for each child; only these may be inherited from the host. */
const INHERITABLE_PAPERCLIP_KEYS = new Set([
  "PAPERCLIP_RUNTIME_API_URL",
  "PAPERCLIP_LISTEN_HOST",
  "PAPERCLIP_LISTEN_PORT",
]);
/** Set when the host itself runs inside Claude Code; a child `claude` would refuse to start. */
const NESTING_GUARD_KEYS = [
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_CODE_SESSION",
  "CLAUDE_CODE_PARENT_SESSION",
];

/** Upstream's child env: the host env without per-run Paperclip keys, then the caller's env, with a PATH. */
export function mergeChildEnv(
  inherited: NodeJS.ProcessEnv,
  env: Record<string, string>,
  homeDir: string | null | undefined,
): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = { ...inherited };
  delete merged.PAPERCLIPAI_CMD;
  for (const key of Object.keys(merged)) {
    if (key.startsWith("PAPERCLIP_") && !INHERITABLE_PAPERCLIP_KEYS.has(key)) delete merged[key];
  }
  Object.assign(merged, env);
  for (const key of NESTING_GUARD_KEYS) delete merged[key];
  if (!merged.PATH) merged.PATH = DEFAULT_PATH;
  if (homeDir) merged.HOME = homeDir;
  return merged;
}

/** Applies a target's env changes, where `undefined` deletes a key. */
export function applyEnvChanges(
  base: Record<string, string | undefined>,
  changes: Record<string, string | undefined> | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...base, ...changes })) {
    if (value !== undefined) result[key] = value;
  }
  for (const [key, value] of Object.entries(changes ?? {})) if (value === undefined) delete result[key];
  return result;
}
