import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findErrorEntry } from "@paperclipai/errors/registry";
import { describe, expect, it } from "vitest";

// The upstream plugin's failure messages (spec: createos-plugin.md), kept verbatim. Each is
// also produced by a behaviour test (execute, fault matrix, client, lifecycle, sync).
const UPSTREAM: ReadonlyArray<readonly [code: string, message: string]> = [
  [
    "ERR_CREATEOS_API_URL",
    "CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.",
  ],
  ["ERR_CREATEOS_INVALID_JSON", "CreateOS returned invalid JSON."],
  ["ERR_CREATEOS_UNSUCCESSFUL_RESPONSE", "CreateOS returned an unsuccessful response."],
  ["ERR_CREATEOS_INVALID_RESPONSE", "CreateOS returned an invalid response."],
  ["ERR_CREATEOS_INVALID_RESOURCE_ID", "CreateOS returned an invalid resource ID."],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the registry keeps this message as a template
  ["ERR_CREATEOS_HTTP_STATUS", "CreateOS request failed (HTTP ${status}) during ${operation}."],
  ["ERR_CREATEOS_CONNECTION", "CreateOS connection failed."],
  ["ERR_CREATEOS_COMMAND_REQUIRED", "A sandbox command is required."],
  ["ERR_CREATEOS_INVALID_ENV", "Invalid sandbox environment variable."],
  ["ERR_CREATEOS_NUL_VALUE", "Sandbox command values cannot contain NUL."],
  [
    "ERR_CREATEOS_PROCESS_UNCONFIRMED",
    "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
  ],
  ["ERR_CREATEOS_SEQUENCE_INVALID", "CreateOS process sequence is invalid."],
  ["ERR_CREATEOS_SEQUENCE_GAP", "CreateOS process output has a sequence gap."],
  ["ERR_CREATEOS_OUTPUT_INVALID", "CreateOS process output is invalid."],
  ["ERR_CREATEOS_OUTPUT_EVICTED", "CreateOS process output was evicted before it could be read."],
  ["ERR_CREATEOS_OUTPUT_CONNECTION", "CreateOS process output connection failed."],
  ["ERR_CREATEOS_STREAM_ENDED", "CreateOS process stream ended without an exit status."],
  ["ERR_CREATEOS_CANCELLED", "CreateOS command was cancelled."],
  ["ERR_CREATEOS_CLEANUP_FAILED", "CreateOS command cleanup failed; process termination is unconfirmed."],
];

const OPERATIONS = [
  "file transfer",
  "stdin close",
  "output connection",
  "process creation",
  "process cleanup",
  "workspace command",
  "sandbox lifecycle",
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "emulator" ? [] : sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

const code = sources(fileURLToPath(new URL("../src", import.meta.url)))
  .map((file) => readFileSync(file, "utf8"))
  .join("\n");

describe("upstream messages", () => {
  it.each(UPSTREAM)(
    "%s is registered with the verbatim message and thrown by the source",
    (errorCode, message) => {
      expect(findErrorEntry(errorCode)?.message).toBe(message);
      expect(code).toContain(errorCode);
      if (!message.includes("${")) expect(code).toContain(`"${message}"`);
    },
  );

  it("names calls only with the fixed operation labels", () => {
    const labels = [...code.matchAll(/operation: "([^"]+)"/g)].map((match) => match[1]);
    expect(labels.length).toBeGreaterThan(10);
    expect(new Set(labels)).toEqual(new Set(OPERATIONS));
  });
});
