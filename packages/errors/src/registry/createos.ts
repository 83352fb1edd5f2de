import type { RegistryTable } from "./entry.js";

/** Codes thrown by `@paperclipai/plugin-createos`. Owned by the CreateOS team. */
export const createosRegistry = {
  ERR_CREATEOS_OUTPUT_CONNECTION: {
    family: "createos",
    title: "CreateOS process output connection failed",
    message: "CreateOS process output connection failed.",
    meaning:
      "The plugin follows a remote process's output through `GET /v1/sandboxes/{id}/processes/{pid}/connect?after=N`. Every reconnect of the current outage failed (network error, HTTP 5xx or 429) until the retry budget ran out. The budget is per outage: it resets whenever a frame is accepted, so a long run behind a proxy that cuts idle streams keeps going. `details` holds the attempts, the last HTTP status, the output cursor and the process id. The process tree was killed before this error was thrown, so a rerun is safe.",
    when: "The CreateOS API is down or restarting during a command, a load balancer returns 503 for the connect route, the caller IP is rate limited (about 300 requests a minute) by many concurrent commands, or DNS, TLS or a firewall blocks the API origin.",
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
  ERR_CREATEOS_EMULATOR_OPTIONS: {
    family: "createos",
    title: "Invalid CreateOS emulator options",
    message: "Invalid CreateOS emulator options: ${reason}",
    meaning:
      "`startCreateosEmulator(options)` or the `createos-emulator` command line received a value it cannot use, so no server was started. `details.option` names the offending option. The emulator only listens on loopback addresses, so a non-loopback `host` is refused here too.",
    when: "A negative or non-integer port, heartbeat, journal size, rate limit or transition delay; a `host` that is not `127.0.0.1`, `::1` or `localhost`; an API key that is empty or contains characters an HTTP header cannot carry; an unknown `isolation` mode; an unknown or malformed command-line flag.",
    solutions: [
      "Read `error.details.option` and the reason in the message, and pass a value of the documented type and range.",
      "Keep `host` on loopback (the default `127.0.0.1`); the emulator is a local test double and never listens on a network interface.",
      "Run `createos-emulator --help` for the accepted flags.",
    ],
    prevention:
      "Start from the defaults and override only the options a test needs; the defaults are valid on every supported platform.",
    example: `import { startCreateosEmulator } from "@paperclipai/plugin-createos/testing";

const emulator = await startCreateosEmulator({ heartbeatMs: 200, rateLimitPerMinute: null });
try {
  // point the plugin at emulator.url with emulator.apiKey
} finally {
  await emulator.close();
}`,
  },
  ERR_CREATEOS_EMULATOR_FAULT_PLAN: {
    family: "createos",
    title: "Invalid CreateOS emulator fault plan",
    message: "Invalid CreateOS emulator fault plan: ${reason}",
    meaning:
      "A fault plan given to the emulator (`options.faults`, `emulator.faults.set()` / `add()`, or `createos-emulator --faults`) has a rule the emulator does not understand, so nothing was armed. `details.rule` is the index of the bad rule.",
    when: "An unknown `kind`, an unknown `route`, a status outside 100-599, a negative `times`, `skip`, `afterFrames`, `frames` or `delayMs`, or an `evict` rule without `mode`.",
    solutions: [
      "Compare the rule at `error.details.rule` with the `Fault` type exported by `@paperclipai/plugin-createos/testing`.",
      'Use `times: "always"` for a fault that must keep firing, not a negative number.',
    ],
    prevention:
      "Write fault plans in TypeScript against the exported `FaultPlan` type so the compiler checks them.",
    example: `emulator.faults.set({ faults: [
  { kind: "http-status", route: "process.connect", status: 503, times: 2, retryAfterSeconds: 1 },
  { kind: "drop-stream", afterFrames: 10 },
] });`,
  },
  ERR_CREATEOS_EMULATOR_LISTEN: {
    family: "createos",
    title: "The CreateOS emulator could not listen",
    message: "The CreateOS emulator could not listen on ${address}.",
    meaning:
      "The emulator's HTTP server failed to bind its loopback address; the cause is attached. Nothing is left running: the workspace root created for it was removed.",
    when: "The requested port is already in use (EADDRINUSE), is privileged (below 1024, EACCES), or the loopback interface lacks the address (for example `::1` with IPv6 disabled).",
    solutions: [
      "Pass `port: 0` (the default) to let the OS choose a free port, then read `emulator.url`.",
      "Stop the other process holding the port, or choose another one.",
      "Use `127.0.0.1` when IPv6 loopback is unavailable.",
    ],
    prevention: "Tests should always use port 0; fixed ports are for a long-running demo only.",
  },
  ERR_CREATEOS_EMULATOR_BWRAP: {
    family: "createos",
    title: "The CreateOS emulator cannot use bubblewrap",
    message: "The CreateOS emulator cannot confine processes with bubblewrap.",
    meaning:
      '`isolation: "bwrap"` was requested, but running a trivial command under `bwrap` failed, so sandboxed processes could not be started. The probe\'s exit status and stderr are in `details`.',
    when: "`bwrap` is not installed, is not on PATH, or the kernel forbids the namespaces it needs (unprivileged user namespaces disabled, a container without CAP_SYS_ADMIN).",
    solutions: [
      "Install bubblewrap (`apt-get install bubblewrap`) and check `bwrap --ro-bind / / true` works for this user.",
      "Enable unprivileged user namespaces (`sysctl kernel.unprivileged_userns_clone=1`) or run with the required capability.",
      'Use `isolation: "none"` (the default): processes run as plain child processes with `/paperclip-workspace` and `/tmp` rewritten to the sandbox\'s directories.',
    ],
    prevention: "Keep the default isolation in CI unless the runners are known to support bubblewrap.",
  },
} as const satisfies RegistryTable<"CREATEOS", "createos">;
