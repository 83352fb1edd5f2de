import type { PaperclipPluginManifestV1 } from "@paperclipai/plugin-sdk";
import { VERSION } from "./version.js";

export const PLUGIN_ID = "paperclip.createos-sandbox-provider";
export const DRIVER_KEY = "createos";

const positiveInteger = (minimum: number, maximum: number, fallback: number, description: string) => ({
  type: "integer",
  minimum,
  maximum,
  default: fallback,
  description,
});

/**
 * JSON Schema of the `createos` driver's environment config. Open to other keys: the host
 * adds its own flags and the lease record to the config it passes (see `config-keys.ts`).
 */
export const CONFIG_SCHEMA = {
  type: "object",
  properties: {
    apiUrl: {
      type: "string",
      default: "https://api.sb.createos.sh",
      description:
        "CreateOS API origin (an optional trailing /v1 is accepted). HTTPS, or HTTP on loopback only.",
    },
    apiKey: {
      type: "string",
      // The host stores a `secret-ref` field as a company secret and resolves it for each hook.
      format: "secret-ref",
      description:
        "CreateOS API key, sent as X-Api-Key; stored by the host as a secret. Optional for the default origin when CREATEOS_API_KEY is set.",
    },
    shape: {
      type: "string",
      description: "Sandbox shape from the CreateOS catalog (s-0.25vcpu-512mb … s-8vcpu-16gb), required.",
    },
    rootfs: { type: "string", description: "Root filesystem image of new sandboxes." },
    region: { type: "string", description: "Region of new sandboxes." },
    reuseLease: {
      type: "boolean",
      default: false,
      description: "Pause sandboxes on release and resume them for the next run, instead of deleting them.",
    },
    timeoutMs: positiveInteger(
      1,
      86_400_000,
      300_000,
      "Deadline of a command the host sends without one (upstream's key).",
    ),
    requestsPerMinute: positiveInteger(
      1,
      100_000,
      240,
      "Sustained request rate per origin and key (CreateOS allows about 300).",
    ),
    burst: positiveInteger(1, 10_000, 20, "Requests that may start back to back."),
    reconnectAttempts: positiveInteger(0, 100, 6, "Failed output reconnects tolerated per outage."),
    heartbeatTimeoutMs: positiveInteger(
      100,
      600_000,
      15_000,
      "An output stream silent this long is reconnected.",
    ),
    requestTimeoutMs: positiveInteger(100, 600_000, 30_000, "Deadline of one API request."),
    lifecycleTimeoutMs: positiveInteger(
      100,
      3_600_000,
      120_000,
      "Deadline of a create, pause, resume or delete.",
    ),
    backoffBaseMs: positiveInteger(1, 60_000, 250, "First retry delay ceiling (exponential, full jitter)."),
    backoffCapMs: positiveInteger(1, 600_000, 8_000, "Longest retry delay."),
  },
} as const;

/** The plugin manifest the Paperclip host validates at install time. */
export const manifest: PaperclipPluginManifestV1 = {
  id: PLUGIN_ID,
  apiVersion: 1,
  version: VERSION,
  displayName: "CreateOS sandboxes",
  description: "Runs agent commands in CreateOS remote sandboxes, with live output and native file sync.",
  author: "Paperclip",
  categories: ["workspace"],
  capabilities: ["environment.drivers.register", "http.outbound"],
  entrypoints: { worker: "./dist/worker.js" },
  environmentDrivers: [
    {
      driverKey: DRIVER_KEY,
      kind: "sandbox_provider",
      displayName: "CreateOS",
      description: "CreateOS remote sandboxes (https://api.sb.createos.sh).",
      supportsReusableLeases: true,
      // `incrementalSessionOutput`: every output chunk of a running command reaches
      // `ctx.execution.log` as it arrives (the host then streams ACP sessions through one
      // long command instead of polling event files with several commands every 100 ms).
      sandboxCapabilities: {
        reusableLeases: true,
        nativeSyncIn: true,
        nativeSyncOut: true,
        incrementalSessionOutput: true,
      },
      configSchema: CONFIG_SCHEMA as unknown as Record<string, unknown>,
    },
  ],
};

export default manifest;
