import { readFileSync, statSync } from "node:fs";
import { type FakeScript, parseFakeScript } from "./fake-script.js";
import { parseUpstreamScript, UPSTREAM_SCRIPT_MAX_BYTES, type UpstreamScript } from "./upstream-script.js";

/** A script of either format the built-in harness runs. */
export type LoadedScript =
  | { readonly format: "own"; readonly script: FakeScript }
  | { readonly format: "upstream"; readonly script: UpstreamScript };

export type ScriptLoad =
  | { readonly ok: true; readonly loaded: LoadedScript }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads a script file: upstream's format when it names a `schema`, this
 * package's documented format otherwise. Never throws; the reason says why not.
 */
export function loadScript(path: string): ScriptLoad {
  let text: string;
  try {
    if (statSync(path).size > UPSTREAM_SCRIPT_MAX_BYTES)
      return { ok: false, reason: `fake harness script cannot exceed ${UPSTREAM_SCRIPT_MAX_BYTES} bytes` };
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { ok: false, reason: `cannot read the script (${(error as { code?: string }).code ?? "error"})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "the script is not JSON" };
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value) && "schema" in value) {
    const parsed = parseUpstreamScript(value as Record<string, unknown>);
    return parsed.ok ? { ok: true, loaded: { format: "upstream", script: parsed.script } } : parsed;
  }
  const parsed = parseFakeScript(value);
  return parsed.ok ? { ok: true, loaded: { format: "own", script: parsed.script } } : parsed;
}
