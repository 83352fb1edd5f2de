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
      "Raise the per-outage reconnect budget (`reconnectAttempts` in the environment config, default 6) if the outages are long but recoverable.",
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
  ERR_CREATEOS_API_URL: {
    family: "createos",
    title: "The CreateOS API URL is not an HTTPS origin",
    message:
      "CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.",
    meaning:
      "The plugin config `apiUrl` is reduced to its origin and every call goes to `${origin}/v1${path}`. The value was not a URL, used plain HTTP on a non-loopback host, or carried userinfo, a query, a fragment or a path other than `/` or `/v1`. The plugin refuses it before any request, so the API key is never sent to a wrong or cleartext endpoint.",
    when: "A URL with a trailing path such as `/v1/sandboxes`, a `http://` URL for a remote host, credentials in the URL (`https://user:pw@host`), or a typo in the config.",
    solutions: [
      "Use the origin only, for example `https://api.sb.createos.sh` or `https://api.sb.createos.sh/v1`.",
      "Use HTTPS for every non-loopback host; plain HTTP is only for `localhost`, `127.0.0.1` and `[::1]` (the local emulator).",
      "Put the API key in `apiKey`, never in the URL.",
    ],
    prevention: "Validate the environment config with the plugin's `validateConfig` hook before saving it.",
    example: `new CreateosClient({ apiUrl: "http://api.example.test" });
// CreateosError [ERR_CREATEOS_API_URL]: CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.`,
  },
  ERR_CREATEOS_API_KEY_MISSING: {
    family: "createos",
    title: "No CreateOS API key",
    message: "A CreateOS API key is required (config apiKey, or CREATEOS_API_KEY for the default API URL).",
    meaning:
      "Every call carries the key in `X-Api-Key`. The config has no `apiKey`, and `CREATEOS_API_KEY` is only used for the default origin `https://api.sb.createos.sh`: a custom origin needs an explicit key, so a key meant for the hosted service never goes to a server someone else configured.",
    when: "A new environment without `apiKey`, a custom `apiUrl` (a proxy or the local emulator) relying on `CREATEOS_API_KEY`, or an empty key.",
    solutions: [
      "Set `apiKey` in the environment config.",
      "For the default origin only, export `CREATEOS_API_KEY` in the worker's environment.",
      "For the local emulator, use the key it prints (`createos-emulator --port N`) or `emulator.apiKey`.",
    ],
    prevention:
      "Store the key with the environment config; do not rely on process environment for custom origins.",
  },
  ERR_CREATEOS_API_KEY_INVALID: {
    family: "createos",
    title: "The CreateOS API key cannot be sent as a header",
    message: "The CreateOS API key has characters a header cannot carry.",
    meaning:
      "The key must be 1 to 4096 visible ASCII characters. It had whitespace, a newline or non-ASCII characters, usually from a copy-paste; fetch would reject it with an error that quotes the value, so the plugin refuses it first and never echoes it.",
    when: "A key pasted with a trailing newline or space, a key read from a file with its line ending, or a placeholder with spaces.",
    solutions: [
      "Trim the key and paste it again.",
      "When reading the key from a file, strip the trailing newline (`tr -d '\\n'`).",
    ],
    prevention: "Store keys through a secret manager that keeps the value exact.",
  },
  ERR_CREATEOS_HTTP_STATUS: {
    family: "createos",
    title: "A CreateOS request failed with an HTTP error status",
    message: "CreateOS request failed (HTTP ${status}) during ${operation}.",
    meaning:
      "CreateOS answered a call with a non-2xx status. The body is discarded unread, since it may echo the request or the key; `status` and the fixed `operation` label (`file transfer`, `stdin close`, `output connection`, `process creation`, `process cleanup`, `workspace command`, `sandbox lifecycle`) say what failed. Idempotent calls were already retried on 408, 429, 502, 503 and 504 with exponential backoff and `Retry-After`; creates are never retried.",
    when: "401/403 for a wrong or revoked key, 404 for a sandbox that no longer exists, 409 for a conflicting state transition, 429 when the rate limit (about 300 requests a minute per IP) is exceeded for longer than the retries, 5xx during an outage.",
    solutions: [
      "Check `error.status`: 401/403 means the API key; 404 the sandbox or process is gone (acquire a new lease); 429 too many concurrent commands; 5xx a service problem.",
      "Check `error.operation` to see which step failed.",
      "Retry the operation once the service is healthy; `error.retryable` and `error.retryAfterMs` say whether and when.",
    ],
    prevention:
      "Keep concurrency within the rate limit and keep the default pacer (burst 20, 240 requests a minute).",
  },
  ERR_CREATEOS_REDIRECT: {
    family: "createos",
    title: "CreateOS answered a call with a redirect",
    message: "CreateOS request was redirected during ${operation}; redirects are refused.",
    meaning:
      "Every call is sent with redirects refused, so the `X-Api-Key` header never goes to a `Location`. The call was not followed and is not retried; `operation` names the step (`file transfer`, `stdin close`, `output connection`, `process creation`, `process cleanup`, `workspace command`, `sandbox lifecycle`).",
    when: "`apiUrl` points at a proxy, load balancer or old hostname that redirects (for example HTTP to HTTPS, or to a new domain), or something between the worker and CreateOS rewrites replies.",
    solutions: [
      "Set `apiUrl` to the origin the redirect points at (after checking that it is really CreateOS).",
      "Remove the proxy or rule that answers CreateOS calls with a redirect.",
    ],
    prevention:
      "Configure the final API origin, and run the plugin's `probe` after changing network or URL settings.",
  },
  ERR_CREATEOS_CONNECTION: {
    family: "createos",
    title: "The CreateOS API could not be reached",
    message: "CreateOS connection failed.",
    meaning:
      "A request to the CreateOS API failed before an HTTP status arrived: DNS, TCP, TLS or a reset connection. The underlying cause is dropped on purpose because it can contain the URL; `details.reached` is `false` when no attempt of the call, retries included, ever made a connection (no address, no route, refused), so the API cannot have acted on the request; it is absent when any attempt connected, even if the last one was refused. Idempotent calls were retried with backoff before this error.",
    when: "The API host is down or unreachable, a firewall or proxy blocks the origin or TLS fails.",
    solutions: [
      "Check that the worker host can reach the configured `apiUrl` (DNS, firewall, proxy, TLS).",
      "Retry once the network is back; the failed call did not reach the service or its outcome is reported separately.",
    ],
    prevention: "Run the plugin's `probe` after changing network or URL settings.",
  },
  ERR_CREATEOS_REQUEST_TIMEOUT: {
    family: "createos",
    title: "A CreateOS request timed out",
    message: "CreateOS request timed out during ${operation}.",
    meaning:
      "One attempt of a call got no complete answer within its deadline (30 s by default; for the output stream, no headers; for a sandbox delete, the lifecycle deadline). Idempotent calls are retried; the error surfaces when the retries are spent or the call was a create.",
    when: "A slow or overloaded API, a network path that drops packets, or a very large file transfer on a slow link.",
    solutions: [
      "Check the API's health and the network path.",
      "Raise `requestTimeoutMs` in the plugin config for slow links or large file transfers.",
    ],
    prevention:
      "Keep file transfers small (sync directories as archives) and the worker close to the API region.",
  },
  ERR_CREATEOS_INVALID_JSON: {
    family: "createos",
    title: "CreateOS returned invalid JSON",
    message: "CreateOS returned invalid JSON.",
    meaning: "A successful (2xx) JSON call returned a body that does not parse as JSON.",
    when: "A proxy or captive portal answering in place of the API, a truncated response, or an `apiUrl` that points at something other than the CreateOS API.",
    solutions: [
      "Check that `apiUrl` points at the CreateOS API origin.",
      "Check for an intercepting proxy between the worker and the API.",
    ],
    prevention: "Run the plugin's `probe` after configuring an environment.",
  },
  ERR_CREATEOS_UNSUCCESSFUL_RESPONSE: {
    family: "createos",
    title: "CreateOS returned an unsuccessful envelope",
    message: "CreateOS returned an unsuccessful response.",
    meaning:
      'Every JSON reply is an envelope `{ "status": "success", "data": { … } }`. The reply parsed but its `status` was not `"success"` (or it was not an object).',
    when: "An API version mismatch, an error reported with a 2xx status, or a non-CreateOS server.",
    solutions: [
      "Check that `apiUrl` is the CreateOS API.",
      "Retry; if it persists, report it to CreateOS support.",
    ],
    prevention: "Pin the API origin in the config and probe it after changes.",
  },
  ERR_CREATEOS_INVALID_RESPONSE: {
    family: "createos",
    title: "CreateOS returned a reply of the wrong shape",
    message: "CreateOS returned an invalid response.",
    meaning:
      "A success envelope's `data` lacked a field the call needs or had one of the wrong type (for example `tree_exited`, `status`, `exit_code`, `output.newest_seq`).",
    when: "An API version mismatch or a non-CreateOS server.",
    solutions: ["Check that `apiUrl` is the CreateOS API.", "Update the plugin if the API has changed."],
    prevention: "Probe the environment after every plugin or API upgrade.",
  },
  ERR_CREATEOS_INVALID_RESOURCE_ID: {
    family: "createos",
    title: "CreateOS returned an invalid resource ID",
    message: "CreateOS returned an invalid resource ID.",
    meaning:
      "Sandbox and process ids are put into URL paths, so they must match `^[A-Za-z0-9_-]{1,200}$`. An id returned by the API, or stored in lease metadata, did not; the plugin refuses to build a path from it.",
    when: "A tampered or corrupted lease record, or a server answering with unexpected ids.",
    solutions: ["Destroy the lease and acquire a new one.", "Check that `apiUrl` is the CreateOS API."],
    prevention: "Never edit lease metadata by hand.",
  },
  ERR_CREATEOS_COMMAND_REQUIRED: {
    family: "createos",
    title: "No sandbox command",
    message: "A sandbox command is required.",
    meaning:
      "`execute` was called with an empty or blank `command` (or a non-string value); nothing was sent.",
    when: "A caller passing the whole command line in `args`, an unset template variable, or an empty string.",
    solutions: ["Pass the program in `command` and its arguments in `args`."],
    prevention: "Validate commands where they are built.",
  },
  ERR_CREATEOS_INVALID_ENV: {
    family: "createos",
    title: "Invalid sandbox environment variable",
    message: "Invalid sandbox environment variable.",
    meaning:
      "Environment variable names must match `^[A-Za-z_][A-Za-z0-9_]*$` because they are written into the `env` wrapper of the script. `details.key` shows the first offending name (cut to 100 characters); nothing was sent.",
    when: "Names with dashes, dots or spaces, names starting with a digit, or an empty name.",
    solutions: ["Rename the variable to letters, digits and underscores, not starting with a digit."],
    prevention: "Build env maps from a fixed list of names.",
  },
  ERR_CREATEOS_NUL_VALUE: {
    family: "createos",
    title: "A sandbox command value contains NUL",
    message: "Sandbox command values cannot contain NUL.",
    meaning:
      "The command, an argument, the cwd, an env value or stdin contained a NUL character, which cannot cross a shell command line; nothing was sent.",
    when: "Binary data passed as an argument or stdin, or NUL-separated lists built by mistake.",
    solutions: [
      "Pass binary data through a file (sync it in) instead of an argument.",
      "Encode binary stdin, for example as base64.",
    ],
    prevention: "Keep command values text.",
  },
  ERR_CREATEOS_COMMAND_ASSIGNMENT: {
    family: "createos",
    title: "A sandbox command named with = cannot run with a name bash reserves",
    message: "A sandbox command containing = cannot run with an environment variable bash reserves.",
    meaning:
      "The plugin starts a command through bash's own `exec`, its per-command environment as assignments before it. When one of those names is one bash gives a meaning to (`LANG`, `LC_*`, `UID`, `SHLVL`, `BASH*`, …), bash cannot set it verbatim, so the command is started through `env` instead, which takes every leading word containing `=` for one more assignment: a command named `A=B` would never run, its first argument would run in its place, or, with no arguments, `env` would print the whole environment (the command's secrets included) as the command's output. The plugin refuses such a command before any request.",
    when: "A command whose name or path contains `=`, sent with an environment that names `LANG`, an `LC_*` variable or another name bash reserves.",
    solutions: [
      'Rename the program or its directory so the command has no `=`, or start it through a shell, the name then an argument: `sh -c \'exec "$0" "$@"\' /path/a=b …`.',
      "Leave the reserved names out of the per-command environment (set `LANG` in the sandbox image instead).",
    ],
    prevention: "Keep `=` out of command names.",
  },
  ERR_CREATEOS_PROCESS_UNCONFIRMED: {
    family: "createos",
    title: "CreateOS process creation could not be confirmed",
    message: "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
    meaning:
      "`POST /processes` is never retried (it has no idempotency key). Its reply was lost (connection failure, timeout, 5xx or an unreadable reply), so a process may be running in the sandbox without the plugin knowing its id. The lease is blocked: execute refuses it and release destroys it, which kills every process in it.",
    when: "A connection reset or a 5xx at the moment of process creation, a gateway timeout, or a cancel that arrived while the create call was in flight.",
    solutions: [
      "Destroy the lease (the host does so on release) and rerun the command on a new lease.",
      "Check the API's health if it happens repeatedly.",
    ],
    prevention:
      "Keep the worker close to the API and within the rate limit; the plugin never retries a create blindly.",
  },
  ERR_CREATEOS_SEQUENCE_INVALID: {
    family: "createos",
    title: "CreateOS process sequence is invalid",
    message: "CreateOS process sequence is invalid.",
    meaning:
      "An output data frame's `seq` was not a safe integer of at least 1. The output cannot be ordered, so the command is stopped (its tree killed).",
    when: "A protocol mismatch or a corrupted stream.",
    solutions: ["Rerun the command; report the failure to CreateOS if it repeats."],
    prevention: "Use a supported API origin.",
  },
  ERR_CREATEOS_SEQUENCE_GAP: {
    family: "createos",
    title: "CreateOS process output has a sequence gap",
    message: "CreateOS process output has a sequence gap.",
    meaning:
      "A data frame arrived with `seq` greater than the cursor + 1, so output would be lost silently; the command is stopped (its tree killed) rather than reporting incomplete output. `details` holds the expected and received numbers.",
    when: "A server or proxy that drops frames from the NDJSON stream.",
    solutions: ["Rerun the command.", "Check for proxies that rewrite or filter streaming responses."],
    prevention: "Do not put content-filtering proxies in front of the API.",
  },
  ERR_CREATEOS_OUTPUT_INVALID: {
    family: "createos",
    title: "CreateOS process output is invalid",
    message: "CreateOS process output is invalid.",
    meaning:
      "A frame of the output stream broke the protocol: not a JSON object, an unknown stream name, `data_base64` that is not canonical padded base64, a malformed exit frame, an unexpected error frame, or a line over 8 MiB. `details.reason` says which; for an error frame `details.error` is its `error` when that is a plain word (letters and underscores, such as `process_not_found`), else `null`: other text is the server's and may echo what it was sent, the API key included. The command is stopped (its tree killed).",
    when: "A corrupted stream or a proxy rewriting the body.",
    solutions: ["Rerun the command.", "Check for proxies that alter streaming responses."],
    prevention: "Talk to the API directly or through a transparent proxy.",
  },
  ERR_CREATEOS_OUTPUT_EVICTED: {
    family: "createos",
    title: "CreateOS process output was evicted before it could be read",
    message: "CreateOS process output was evicted before it could be read.",
    meaning:
      "The API keeps 1 MiB of output per process. The plugin fell behind by more than that (HTTP 410 on connect, or an `output_offset_expired` error frame), so part of the output is gone. The command is stopped (its tree killed) rather than returning output with a hole.",
    when: "A very chatty command during a long outage of the output stream, or a worker too slow to read (CPU starved, a slow live-log sink).",
    solutions: [
      "Rerun the command with less output (redirect bulk output to a file in the workspace and sync it out).",
      "Keep the worker's CPU and network free enough to follow the stream.",
    ],
    prevention: "Write large outputs to files instead of stdout.",
  },
  ERR_CREATEOS_STREAM_ENDED: {
    family: "createos",
    title: "CreateOS process stream ended without an exit status",
    message: "CreateOS process stream ended without an exit status.",
    meaning:
      "The output stream kept ending without an exit frame while `wait` reported the process still running, for the whole per-outage reconnect budget. `details` holds the attempts, the last status, the cursor and the process id. The tree was killed.",
    when: "A proxy that closes every streaming response at once, or a server that ends streams without exit frames.",
    solutions: [
      "Check proxies or load balancers in front of the API for response time or size limits on streaming responses.",
      "Rerun the command.",
    ],
    prevention: "Let streaming responses through proxies unbuffered and without a short timeout.",
  },
  ERR_CREATEOS_CANCELLED: {
    family: "createos",
    title: "CreateOS command was cancelled",
    message: "CreateOS command was cancelled.",
    meaning:
      "The caller aborted the command (its `AbortSignal`, a lease release or the worker shutting down). The process tree was killed before this error was thrown; `cause` holds the abort reason.",
    when: "An operator cancel, a run being stopped, a lease released while the command ran, or a worker shutdown.",
    solutions: ["Nothing to fix if the cancel was intended; rerun the command otherwise."],
    prevention: "Release leases only after their commands have finished.",
  },
  ERR_CREATEOS_CLEANUP_FAILED: {
    family: "createos",
    title: "CreateOS command cleanup failed",
    message: "CreateOS command cleanup failed; process termination is unconfirmed.",
    meaning:
      "After a timeout, a cancel or a failure, the plugin kills the process tree (`DELETE …/processes/{pid}?grace_ms=1000`, with its own deadline). That call failed or did not confirm `tree_exited`, so processes may still run. The host only shows a message, so this is what execute throws (upstream's text): the outcome that made the kill necessary (a timeout, a cancel, a stream error) is kept as `cause` and in `details.primary` (`code`, `message`), `details.timedOut` says whether the command had timed out, and the lease is blocked until destroyed.",
    when: "The API failing during the very outage that stopped the command, or a kill that times out.",
    solutions: [
      "Destroy the lease: deleting the sandbox kills every process in it.",
      "Check the API's health.",
    ],
    prevention:
      "Nothing to prevent on the caller's side; the plugin blocks the lease so a possibly running process is never shared.",
  },
  ERR_CREATEOS_LIVE_LOG_FAILED: {
    family: "createos",
    title: "The live log callback failed",
    message: "The live log callback failed; the CreateOS command was stopped.",
    meaning:
      "Each decoded output chunk goes to the host's live log (`ctx.execution.log`). The callback threw, so the host would miss output; the command is stopped (its tree killed) instead of being retried as if the network had dropped. `cause` holds the callback's error.",
    when: "A custom `onLog` that throws, for example on a closed sink.",
    solutions: ["Fix the callback; it must not throw.", "Rerun the command."],
    prevention: "Keep live-log sinks non-throwing (buffer or drop instead).",
  },
  ERR_CREATEOS_LEASE_BLOCKED: {
    family: "createos",
    title: "The CreateOS lease is blocked",
    message:
      "This CreateOS lease is blocked after an unconfirmed process outcome; destroy the lease before reusing it.",
    meaning:
      "An earlier command on this lease had an unconfirmed process creation or an unconfirmed kill, so a process may still run in the sandbox. The plugin refuses to run more commands on it or to resume it; releasing it destroys it.",
    when: "After `ERR_CREATEOS_PROCESS_UNCONFIRMED` or `ERR_CREATEOS_CLEANUP_FAILED` on the same lease.",
    solutions: ["Release or destroy the lease and acquire a new one."],
    prevention: "None needed; this is the safety net for the two errors above.",
  },
  ERR_CREATEOS_SANDBOX_NOT_ENDED: {
    family: "createos",
    title: "A CreateOS sandbox could not be ended",
    message: "CreateOS sandbox ${sandboxId} could not be ended during ${operation}; it may still be running.",
    meaning:
      "Releasing or destroying a lease deletes its sandbox (`DELETE /v1/sandboxes/{id}`, then a state read until it is gone). That failed or did not confirm in time, so the sandbox may still run and cost money. The plugin never swallows this: the hook fails with this error, so the host marks its lease for cleanup (`pending_cleanup`) and retries later, and the plugin marks the sandbox itself (blocked for reuse, listed under `unendedSandboxes` in the plugin's health). `details` holds `sandboxId` and `operation` (`release`, `destroy` or `probe cleanup`); `cause` is the failure of the delete.",
    when: "The CreateOS API is unreachable, rate limited or failing while a lease ends, or the sandbox stays in a transitional state past `lifecycleTimeoutMs`.",
    solutions: [
      "Let the host retry: it keeps the lease in `pending_cleanup` and calls destroy again.",
      "Delete the sandbox by its id (`details.sandboxId`) in the CreateOS dashboard or API.",
      "Check the plugin's health (`unendedSandboxes`) for every sandbox still to be ended.",
    ],
    prevention: "Keep the API origin reachable from the host; a release is the last call a sandbox gets.",
  },
  ERR_CREATEOS_ACQUIRE_ROLLBACK_FAILED: {
    family: "createos",
    title: "A failed CreateOS acquire left its sandbox behind",
    message: "CreateOS setup failed and cleanup is unconfirmed for sandbox ${sandboxId}.",
    meaning:
      "Acquiring a lease creates a sandbox, waits for it to run and prepares the workspace. A step after the create failed, and deleting the new sandbox again (the rollback) failed too. The message is upstream's; both failures are kept: the acquire's own error in `details.primary` (`code`, `message`), the failed delete as `cause` and in `details.failure`. The plugin marks the sandbox (listed under `unendedSandboxes` in its health) so the leak is never silent.",
    when: "The CreateOS API failing or becoming unreachable in the middle of an acquire.",
    solutions: [
      "Delete the sandbox by its id (`details.sandboxId`) in the CreateOS dashboard or API.",
      "Fix the cause in `details.primary` and acquire again.",
    ],
    prevention: "Keep the API origin reachable from the host.",
  },
  ERR_CREATEOS_INVALID_CONFIG: {
    family: "createos",
    title: "The CreateOS environment config is invalid",
    message: "CreateOS environment config is invalid: ${problem}",
    meaning:
      'A hook was called with a config it cannot use (a wrong type, an out-of-range number, an API URL or key that cannot work). `details.problems` lists every problem. Keys the plugin does not know never fail a hook: the host adds its own flags and the lease record to the config. Only `validateConfig` (saving an environment) refuses a key that looks like a misspelt plugin key (`unknown key "shpae" (did you mean "shape"?)`) and warns about other unknown keys.',
    when: "A config saved without validation or edited by hand.",
    solutions: [
      "Run `validateConfig` and fix each listed problem.",
      "See the package README for every config key.",
    ],
    prevention: "Validate configs before saving them.",
  },
  ERR_CREATEOS_LEASE_MISMATCH: {
    family: "createos",
    title: "The CreateOS lease belongs elsewhere",
    message: "CreateOS lease does not belong to this environment.",
    meaning:
      "Lease metadata binds a sandbox to the company, the environment and the API origin it was created for. A hook came with metadata for another one (or none), so the plugin refuses to touch the sandbox, before any request. The text is upstream's for each hook: `CreateOS lease does not belong to this environment.` (resume, release, destroy), `CreateOS execution requires a lease from this environment.` (execute, sync), `CreateOS workspace requires a lease from this environment.` (realize).",
    when: "A lease record copied between environments, or an environment whose `apiUrl` changed.",
    solutions: [
      "Acquire a new lease in this environment.",
      "Restore the previous `apiUrl` if it was changed by mistake.",
    ],
    prevention: "Do not move lease records between environments.",
  },
  ERR_CREATEOS_LEASE_EXPIRED: {
    family: "createos",
    title: "The CreateOS lease no longer matches the config",
    message: "CreateOS lease was created with another shape, rootfs or region; acquire a new lease.",
    emitted: false,
    meaning:
      "Legacy: resume now answers `{ providerLeaseId: null, metadata: { expired: true } }` instead (upstream's result), so the host acquires a fresh lease. A paused lease is only reused with the settings it was created with. The environment's shape, rootfs or region changed, so reuse has expired. Resume never deletes: the old sandbox is left for the host to release.",
    when: "After changing `shape`, `rootfs` or `region` of an environment with paused leases.",
    solutions: ["Acquire a new lease; release the old one to delete its sandbox."],
    prevention: "Expect paused leases to be replaced after a shape, rootfs or region change.",
  },
  ERR_CREATEOS_LEASE_MARKER: {
    family: "createos",
    title: "The CreateOS workspace marker does not match",
    message: "CreateOS workspace marker does not match the lease; the sandbox cannot be trusted.",
    emitted: false,
    meaning:
      "Legacy: resume now answers `{ providerLeaseId: null, metadata: { expired: true } }` instead (upstream's result), so the host acquires a fresh lease. At acquire the plugin writes a random marker file into `/paperclip-workspace`; before a resumed lease is trusted it reads it back. It was missing or different, so the sandbox is not the one the lease was created for (or its workspace was wiped).",
    when: "A sandbox recreated under the same id, a workspace wiped by a command, or tampered lease metadata.",
    solutions: [
      "Acquire a new lease.",
      "Do not delete `/paperclip-workspace/.paperclip-runtime/.paperclip-createos-lease` in commands.",
    ],
    prevention: "Keep the workspace marker file in place.",
  },
  ERR_CREATEOS_SANDBOX_STATE: {
    family: "createos",
    title: "The CreateOS sandbox is in an unusable state",
    message: "CreateOS sandbox is ${status}; expected ${expected}.",
    meaning:
      "A lifecycle step (create, resume, pause, delete) waited for a state, and the sandbox reached a state it cannot leave (`error`, `failed`, `destroyed`), or did not get there before the deadline (`details.timedOut`). Transitional states (`creating`, `pausing`, `resuming`) and a state read that still shows the old state are polled until the deadline.",
    when: "A sandbox that failed to boot (bad rootfs, no capacity in the region), one destroyed out of band, or a slow transition.",
    solutions: [
      "Check the shape, rootfs and region in the config.",
      "Acquire a new lease; the failed sandbox is deleted on release.",
      "Raise `lifecycleTimeoutMs` if transitions are slow.",
    ],
    prevention: "Probe the environment after config changes.",
  },
  ERR_CREATEOS_WORKSPACE_COMMAND: {
    family: "createos",
    title: "A CreateOS workspace command failed",
    message: "CreateOS workspace command failed (exit ${exitCode}).",
    meaning:
      "A short command the plugin runs itself through `POST /exec` (preparing `/paperclip-workspace`, packing or unpacking a sync archive, applying modes) exited non-zero. `details.step` says which step; stderr is not included because it can echo file contents.",
    when: "A full sandbox disk, a missing `tar` in the rootfs, or a path the sandbox user cannot write.",
    solutions: [
      "Check disk space in the sandbox.",
      "Use a rootfs that has `tar`, `mkdir`, `chmod` and `mv`.",
    ],
    prevention: "Keep the rootfs standard.",
  },
  ERR_CREATEOS_EXPIRY_UNSUPPORTED: {
    family: "createos",
    title: "CreateOS cannot give a lease a guaranteed expiry",
    message: "CreateOS does not yet support leases with a guaranteed expiration deadline.",
    meaning:
      "The host asked for a lease with `requestedExpiresAt` (a login or a time-boxed run). CreateOS has no provider-side sandbox expiry, and a host-side timer is not a guarantee, so the acquire is refused before any request: no sandbox is created (upstream's behaviour and text).",
    when: "A host flow that needs a lease to end by itself at a deadline.",
    solutions: ["Use an environment whose provider supports lease expiry for this flow."],
    prevention: "Do not select a CreateOS environment for flows that need a guaranteed expiry.",
  },
  ERR_CREATEOS_SYNC_LINK_ESCAPES: {
    family: "createos",
    title: "A followed link leaves the uploaded directory",
    message:
      "CreateOS does not support followSymlinks for host directory uploads when a link leaves the source directory; stage files inside the source directory or omit this option.",
    meaning:
      "A host directory upload with `followSymlinks` uploads what its links point to. Links whose target stays inside the source directory are followed; one that leads out of it (an absolute link to `/etc`, a `../` link to a sibling) would upload host files the mapping never named, so the whole sync is refused before any request. Links are checked before the upload and again, entry by entry, while the archive is packed: each entry is opened first and judged by where the opened file really is, and its bytes are read from that same open file, so an entry another host process swaps for a link once it was checked cannot send the link's target. `details` names the operation and the link (relative to the source).",
    when: "A workspace that links to a shared cache or to a secret on the host, synced with `followSymlinks: true`. Also without `followSymlinks` (despite the message, which is upstream's): while the archive is packed, an entry of the source, or the source directory itself, was swapped by another host process for a link that leaves the source (or for something whose place could not be told), so what would have been read is outside it.",
    solutions: [
      "Copy the files the link points to into the source directory.",
      "Omit `followSymlinks`: links are then uploaded as links.",
      "Exclude the link with `exclude`.",
      "Without `followSymlinks`: find the host process that replaces entries of the source directory (or the directory itself) with links while it is synced, and stop it or sync a copy; `details.link` names the entry.",
    ],
    prevention:
      "Keep directories that are uploaded with `followSymlinks` self-contained, and keep other processes from replacing entries of a directory while it is synced in.",
  },
  ERR_CREATEOS_SYNC_SOURCE_NOT_FILE: {
    family: "createos",
    title: "A file mapping of a sync in names no regular file",
    message: "CreateOS sync in needs a regular file for a file mapping.",
    meaning:
      "A sync mapping with `kind: \"file\"` is a single regular file (the plugin SDK's contract); a link the caller named is followed to one. This host path named a directory, a FIFO, a device or a socket instead, so the plugin refused it before any request and without opening it: opening a FIFO would wait for a writer for good, holding one of the worker's few file-system threads, a device such as `/dev/zero` never ends, and opening some devices acts on them. `details.type` says what was found (`directory`, `fifo`, `device`, `socket`), `details.operationId` names the operation.",
    when: "A host path that is a named pipe, a device node or a directory, or a link to one, mapped as a single file.",
    solutions: [
      'Map a directory with `kind: "directory"`; its FIFOs, devices and sockets are left out.',
      "Copy what a pipe or device gives into a regular file first, and sync that file.",
    ],
    prevention: 'Map only regular files as `kind: "file"`.',
  },
  ERR_CREATEOS_SYNC_SOURCE_NOT_DIRECTORY: {
    family: "createos",
    title: "A directory mapping of a sync in names no directory",
    message: "CreateOS sync in needs a directory for a directory mapping.",
    meaning:
      "A sync mapping with `kind: \"directory\"` is a host directory, uploaded as a tar archive of its tree; a link the caller named is followed to one. This host path named a regular file, a FIFO, a device or a socket instead, so the plugin refused the operation before any request (before, it created the target's parent in the sandbox, then failed with the file system's `ENOTDIR`). `details.type` says what was found (`file`, `fifo`, `device`, `socket`), `details.operationId` names the operation.",
    when: "A single file, or a link to one, mapped as a directory.",
    solutions: ['Map a single file with `kind: "file"`.'],
    prevention: 'Map only directories as `kind: "directory"`.',
  },
  ERR_CREATEOS_SYNC_SOURCE_CHANGED: {
    family: "createos",
    title: "A host file shrank while a sync in uploaded it",
    message: "CreateOS sync in read a host file that changed while it was uploaded.",
    meaning:
      "A host directory is uploaded as a tar archive made as it is read: each file's size goes into its header from the file as it was opened, then its bytes are read from that same open file. This one ended before that size (another process truncated or rewrote it meanwhile), so the archive would have said one size and carried another; the upload stopped and nothing of it was extracted in the sandbox. A file that grows meanwhile is sent as it was when opened. A single file mapping (`kind: \"file\"`) is sent likewise, as large as it is when each attempt starts, and fails the same way when it ends before that. `details.entry` names the file (relative to the source, or a single file's name, cut to 200 characters). It is `retryable`: the client sends the upload again, the file read as it is then, and the sync fails with this code only once the client's retries are spent.",
    when: "A build or editor that rewrites files in a directory while it is synced in.",
    solutions: [
      "Retry the sync once the writer is done.",
      "Exclude files that are rewritten during runs with `exclude`.",
    ],
    prevention: "Sync in directories that no other process rewrites while the sync runs.",
  },
  ERR_CREATEOS_SYNC_RESTORE_PENDING: {
    family: "createos",
    title: "A sync out held back from a host tree being put back",
    message: "CreateOS sync out did not replace a host tree that is being put back.",
    meaning:
      "A worker killed while it replaced a host target left the user's tree hidden beside it (`.paperclip-sync-h…`), and a sweep was putting it back as the missing target. A sync out to that target takes such a tree over before it promotes (it would otherwise be put over what was synced), and refuses when it cannot do so safely: `details.reason` is `directory-pending` when the sync out is a single file and the hidden tree a directory (a file never replaces a directory: rename would fail with EISDIR over the directory itself), `claim-not-taken` when taking the tree failed (EIO, ENOSPC; `cause` says which). Nothing at the target was replaced and the tree is left, as a `.released`, for the next sync's sweep to put back. It is `retryable`: once no sync to the target runs, the next one puts the tree back first.",
    when: "A sync out to a target whose previous sync was killed between its two renames, while another worker is putting the tree back; or a host file system that fails renames (full, or failing).",
    solutions: [
      "Retry the sync: the tree is put back first, and a single file is then refused as over any directory.",
      "For `claim-not-taken`, fix the host file system (space, errors) first.",
    ],
    prevention: "Keep workers from being killed during a sync out.",
  },
  ERR_CREATEOS_SYNC_PATH: {
    family: "createos",
    title: "A sync path is outside the workspace",
    message: "CreateOS sync path is not an absolute path inside the sandbox workspace.",
    meaning:
      "Sandbox paths of file sync (targets of sync in, sources of sync out, post-upload cwd) must be absolute POSIX paths under `/paperclip-workspace` once `.` and `..` are resolved, without NUL; host paths must be absolute. `details` names the operation and the field.",
    when: "A mapping built from unchecked input, a relative path, or a path that climbs out with `..`.",
    solutions: ["Build sync mappings from confined paths under `/paperclip-workspace`."],
    prevention: "Use the adapter helpers that build sync mappings.",
  },
  ERR_CREATEOS_REPLY_TOO_LARGE: {
    family: "createos",
    title: "A CreateOS reply is larger than the plugin reads into memory",
    message: "CreateOS reply is larger than ${limitBytes} bytes during ${operation}.",
    meaning:
      "Replies the plugin holds in memory (JSON envelopes, the lease marker) are read up to a cap, 8 MiB by default (`maxReplyBytes` of `CreateosClient`). This one said so in its `Content-Length`, or passed the cap while being read; the rest was not read and the connection was dropped. `details` has the operation, the cap (`limitBytes`) and, when declared, the size (`declaredBytes`). Sync archives and synced files are streamed and never hit this cap. It is not retried: the same request would get the same reply.",
    when: "A `POST /exec` whose command printed megabytes (the plugin's own steps print little), a proxy that answers with a large HTML page and status 200, or a server that is not CreateOS.",
    solutions: [
      "Check that `apiUrl` points at the CreateOS API itself, not at a web page or a proxy's error page.",
      "If a legitimate reply is that large, raise `maxReplyBytes` when constructing `CreateosClient`.",
    ],
    prevention:
      "Keep command output in files synced out (streamed) rather than in `exec` replies; keep `apiUrl` on the API origin.",
    example: `import { PaperclipError } from "@paperclipai/errors";

try {
  await client.json({ method: "GET", path: "/sandboxes/sbx_1", operation: "sandbox read", idempotent: true });
} catch (error) {
  if (PaperclipError.is(error, "ERR_CREATEOS_REPLY_TOO_LARGE")) console.error(error.details); // { operation, limitBytes, declaredBytes? }
  throw error;
}`,
  },
  ERR_CREATEOS_REPLY_ENCODED: {
    family: "createos",
    title: "A CreateOS reply came content-encoded although none was asked for",
    message: "CreateOS reply is content-encoded during ${operation}; only unencoded replies are accepted.",
    meaning:
      "Every call asks for replies as they are (`Accept-Encoding: identity`). This successful reply still named a `Content-Encoding` (gzip, deflate, br…), so it was refused before its body was read or decoded: fetch would decode it on its own, before any cap counts a byte, and a reply of a few hundred bytes (nested `gzip, gzip, gzip`) could become gigabytes of a synced file on the host's disk. `details.operation` names the step. It is not retried: the same server would answer alike.",
    when: "`apiUrl` points at a proxy or gateway that compresses replies whatever the request asks, or a server that is not CreateOS, or something between the worker and CreateOS rewrites replies.",
    solutions: [
      "Check that `apiUrl` points at the CreateOS API itself.",
      "Configure the proxy in front of CreateOS to honour `Accept-Encoding: identity` (or not to compress API replies).",
    ],
    prevention:
      "Keep `apiUrl` on the API origin; run the plugin's `probe` after changing network or URL settings.",
    example: `import { PaperclipError } from "@paperclipai/errors";

try {
  await client.json({ method: "GET", path: "/sandboxes/sbx_1", operation: "sandbox lifecycle", idempotent: true });
} catch (error) {
  if (PaperclipError.is(error, "ERR_CREATEOS_REPLY_ENCODED")) console.error(error.details); // { operation }
  throw error;
}`,
  },
  ERR_CREATEOS_SYNC_ARCHIVE_ENTRY: {
    family: "createos",
    title: "A sync archive has an unsafe entry",
    message: "CreateOS archive contains unsafe entries or exceeds the extraction limit.",
    meaning:
      "Archives are checked before extraction (the message is upstream's). An entry had an absolute path or `..`, a hard or symbolic link pointing outside the target (symbolic links are followed again on the extracted tree, so one that leaves it through another link, `a -> .` then `b -> a/..`, is refused too; so are an entry written through a link and a hard link to a link, which tar itself refuses), a type other than file, directory or symlink (devices, FIFOs), or an entry the host's file system cannot write over what earlier entries of the same archive made (a hard link to a directory, a link in place of a filled directory, an entry below a file, a path longer than the host allows); or it would take the host's file system past the extraction limit: what an unprivileged writer may still use there, less a reserve of 5% of the file system (at most 1 GiB), counted over the entries extracted with each file's content in whole blocks and each directory or symbolic link as one block (`details.budgetBytes`; a file synced out alone is held to the same limit), or its free inodes, less a reserve of 5% of them (at most 1 Mi), one per entry extracted (`details.budgetEntries`: a tree of a million empty files weighs nothing but fills an inode table); or it had more symbolic links than the plugin holds in memory to follow them again, 64 MiB of link paths, about half a million links of usual length (`details.linkPathsBytes`). Nothing was kept: the staging directory or temporary file is removed; `details.entry` names the entry (cut to 200 characters).",
    when: "A sandbox command that created links to host paths (for example `ln -s /etc x`) in a directory being synced out, a crafted archive, or a synced-out tree larger than the room left on the host (a large build output, a sparse file that reads as gigabytes of zeros, more files than the host has inodes to spare).",
    solutions: [
      "Remove the offending link or special file from the synced directory.",
      "Use `followSymlinks: true` on the mapping to copy link targets as files instead.",
      "For the extraction limit: free space on the target's file system, or leave large outputs out with `exclude` (excluded entries count nothing).",
    ],
    prevention:
      "Keep links inside synced directories relative and inside the tree, and exclude build outputs and caches from syncs out.",
  },
  ERR_CREATEOS_SYNC_ARCHIVE_INVALID: {
    family: "createos",
    title: "A synced-out archive arrived incomplete or unreadable",
    message: "CreateOS sync out received an unreadable archive (${reason}).",
    meaning:
      "A directory is synced out as a tar archive packed in the sandbox, whose size the pack step reports, then downloaded and extracted on the host. `incomplete`: the download carried another number of bytes than were packed (`details.expectedBytes`, `details.receivedBytes`); the plugin reads the archive once more before it gives up (the error is `retryable`). `malformed`: the bytes are not a tar archive the host can read (`details.tarCode`, for example `TAR_BAD_ARCHIVE`), or they do not begin with a tar header: a compressed archive (gzip, zstd), which the plugin's own pack never writes, is refused before any entry is read, since its size says nothing of what it extracts to. Either way the target is unchanged (entries land in a private staging directory, which is removed) and the sandbox's archive is removed.",
    when: "A process in the sandbox that writes to or removes the sync's archive (`/tmp/paperclip-sync-*.tar`) while the sync runs, a sandbox image whose `tar` writes another format, or a proxy that shortens replies.",
    solutions: [
      "Retry the sync.",
      "Make sure nothing in the sandbox touches `/tmp/paperclip-sync-*.tar` during a sync.",
      "Check that the sandbox image's `tar` is GNU tar or another POSIX (ustar/pax) writer.",
    ],
    prevention: "Keep background processes of a lease away from `/tmp/paperclip-sync-*` files.",
  },
  ERR_CREATEOS_SYNC_COMMAND_FAILED: {
    family: "createos",
    title: "A post-upload command failed",
    message: "CreateOS transfer command failed.",
    meaning:
      "After an operation's files landed, its post-upload commands run verbatim, in order, fail-fast. This one exited non-zero or timed out (`details.timedOut`, `details.exitCode`); the rest were not run. `details` has the operation id and the command's index, never the command text. The message is upstream's.",
    when: "An extraction or setup command that fails in the sandbox (a missing tool, a full disk).",
    solutions: [
      "Run the command by hand in a lease to see its output.",
      "Raise its `timeoutMs` if it timed out.",
    ],
    prevention: "Keep post-upload commands simple and deterministic.",
  },
  ERR_CREATEOS_HOST_DEADLINE: {
    family: "createos",
    title: "A CreateOS lifecycle step ran out of the host's time",
    message: "CreateOS ${operation} did not finish within the host's limit (${budgetMs} ms).",
    meaning:
      "The Paperclip host stops waiting for an acquire, resume, sync or probe after a fixed time (2026.916.1: an acquire, a sync in or a sync out after the config's `timeoutMs` plus 30 s, or 30 s without one; a resume call after the same but at most 60 s, 60 s without one; a probe after 120 s) and sends the worker no cancel. The plugin ends the step a margin before that limit instead of finishing it after the host has gone: an acquire deletes the sandbox it created (as any failed acquire does), a probe deletes its sandbox, a resume leaves the paused sandbox as it is, a sync stops its transfers and kills its post-upload command. The sandbox create is not cut by the deadline (CreateOS may already have made the sandbox): its answer is always read, and a create that answers after the deadline is deleted at once (an unended-sandbox warning in the host's log if that fails); when the create answers only after the host's own limit, the host has already failed the step and the delete still runs. `details` has the operation and the budget in ms.",
    when: "A slow sandbox create or resume on the CreateOS side, a long rate-limit wait, or an API that answers slowly.",
    solutions: [
      "Retry the run; a resume that ran out keeps the lease for the next run.",
      "Check the CreateOS service's health and the rate limit (about 300 requests a minute per key).",
      "For acquires, resumes and syncs, raise `timeoutMs` in the environment config: the host's limit grows with it.",
    ],
    prevention: "Keep `requestsPerMinute` within the account's limit so lifecycle steps do not queue.",
  },
  ERR_CREATEOS_SHUTTING_DOWN: {
    family: "createos",
    title: "The CreateOS plugin is shutting down",
    message: "CreateOS plugin is shutting down.",
    meaning: "The worker received `shutdown`; active commands were cancelled and new hook calls are refused.",
    when: "A host restart or plugin upgrade while runs are active.",
    solutions: ["Retry once the worker is back."],
    prevention: "Drain runs before restarting the host.",
  },
  ERR_CREATEOS_EMULATOR_OPTIONS: {
    family: "createos",
    title: "Invalid CreateOS emulator options",
    message: "Invalid CreateOS emulator options: ${reason}",
    meaning:
      "`startCreateosEmulator(options)` or the `createos-emulator` command line received a value it cannot use, so no server was started. `details.option` names the offending option. The emulator only listens on loopback addresses, so a non-loopback `host` is refused here too.",
    when: "A negative or non-integer port, heartbeat, journal size, rate limit or transition delay; a `host` that is not `127.0.0.1`, `::1` or `localhost`; an API key that is empty or contains characters an HTTP header cannot carry; an unknown `isolation` mode; a `workspaceRoot` that is relative or cannot be created (a file in the way, no permission); an unknown or malformed command-line flag.",
    solutions: [
      "Read `error.details.option` and the reason in the message, and pass a value of the documented type and range.",
      "Keep `host` on loopback (the default `127.0.0.1`); the emulator is a local test double and never listens on a network interface.",
      "Run `createos-emulator --help` for the accepted flags.",
    ],
    prevention:
      "Start from the defaults and override only the options a test needs; the defaults are valid on every supported platform.",
    example: `import { startCreateosEmulator } from "@paperclipai/createos-emulator";

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
      "Compare the rule at `error.details.rule` with the `Fault` type exported by `@paperclipai/createos-emulator`.",
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
      '`isolation: "bwrap"` or `"namespace"` was requested (both start every process through `bwrap`), but running a trivial command under `bwrap` failed, so the sandboxes\' processes could not be started. The probe\'s exit status and stderr are in `details`.',
    when: "`bwrap` is not installed, is not on PATH, or the kernel forbids the namespaces it needs (unprivileged user namespaces disabled, a container without CAP_SYS_ADMIN).",
    solutions: [
      "Install bubblewrap (`apt-get install bubblewrap`) and check `bwrap --ro-bind / / true` works for this user.",
      "Enable unprivileged user namespaces (`sysctl kernel.unprivileged_userns_clone=1`) or run with the required capability.",
      'Use `isolation: "none"` (the default): processes run as plain child processes with `/paperclip-workspace` and `/tmp` rewritten to the sandbox\'s directories.',
    ],
    prevention: "Keep the default isolation in CI unless the runners are known to support bubblewrap.",
  },
} as const satisfies RegistryTable<"CREATEOS", "createos">;
