import { fileURLToPath } from "node:url";
import { REDACTED_COMMAND_TEXT_VALUE as UPSTREAM_MARKER } from "upstream-adapter-utils/command-redaction";
import type { Plugin } from "vitest/config";
import { REDACTED } from "../../src/redact/redact-secrets.js";

const UPSTREAM_TEST = /adapter-utils@2026\.916\.1\/.*\/dist\/command-redaction\.test\.js$/;
const OURS = fileURLToPath(new URL("./command-redaction-ours.ts", import.meta.url));

/**
 * Runs upstream's `command-redaction.test.js`, unchanged but for its marker text, against our
 * redactor: its import of `./command-redaction.js` resolves to ours, and the literal
 * `***REDACTED***` in its expectations reads `[REDACTED]`.
 */
export function runUpstreamRedactionTestsAgainstOurs(): Plugin {
  return {
    name: "run-upstream-redaction-tests-against-ours",
    enforce: "pre",
    resolveId(source, importer) {
      if (importer && UPSTREAM_TEST.test(importer) && source === "./command-redaction.js") return OURS;
      return null;
    },
    transform(code, id) {
      if (!UPSTREAM_TEST.test(id)) return null;
      return { code: code.replaceAll(UPSTREAM_MARKER, REDACTED), map: null };
    },
  };
}
