import type { RegistryTable } from "./entry.js";

/** Codes thrown by `@paperclipai/plugin-createos`. Owned by the CreateOS team. */
export const createosRegistry = {
  ERR_CREATEOS_OUTPUT_CONNECTION: {
    family: "createos",
    title: "CreateOS process output connection failed",
    message: "CreateOS process output connection failed.",
    meaning:
      "The plugin follows a remote process's output through `GET /v1/sandboxes/{id}/processes/{pid}/connect?after=N`. Every reconnect of the current outage failed (network error, HTTP 5xx or 429) until the retry budget ran out. The budget is per outage: it resets whenever a frame is accepted, so a long run behind a proxy that cuts idle streams keeps going. `details` holds the attempts, the last HTTP status, the output cursor and the process id. The process tree was killed before this error was thrown, so a rerun is safe.",
    when:
      "The CreateOS API is down or restarting during a command, a load balancer returns 503 for the connect route, the caller IP is rate limited (about 300 requests a minute) by many concurrent commands, or DNS, TLS or a firewall blocks the API origin.",
    solutions: [
      "Check `error.details.lastStatus`: 429 means rate limiting (reduce concurrent commands), 5xx a service problem, no status a network problem.",
      "Verify the configured `apiUrl` origin and that the host can reach it (DNS, TLS, firewall).",
      "Retry the whole `execute` once the service is healthy; the failed command's process tree is already terminated.",
      "Raise the reconnect budget in the plugin config if the outages are long but recoverable.",
    ],
    prevention:
      "Keep concurrent commands per API key within the rate limit, and keep the default per-outage budget with exponential backoff; the plugin honours `Retry-After` on 429 and 503.",
    example: `import { PaperclipError } from "@paperclipai/errors";

try {
  await execute(client, params, signal);
} catch (error) {
  if (PaperclipError.is(error, "ERR_CREATEOS_OUTPUT_CONNECTION")) {
    console.error("output stream lost", error.details); // { attempts, lastStatus, cursor, processId }
  }
  throw error;
}`,
  },
} as const satisfies RegistryTable<"CREATEOS", "createos">;
