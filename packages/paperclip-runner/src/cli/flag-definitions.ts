/** How a flag takes its value. */
export type FlagKind =
  /** `--name value`; the first occurrence wins. */
  | "value"
  /** `--name value`, repeatable, in order; the value is taken verbatim even when it starts with `--`. */
  | "repeatable"
  /** `--name` alone. */
  | "boolean";

export interface FlagDefinition {
  readonly kind: FlagKind;
  /** One line for `--help`. */
  readonly description: string;
  /** The placeholder for the value in `--help`. */
  readonly value?: string;
}

/** Every flag `paperclip-runnerd` understands; anything else is reported and ignored. */
export const RUNNERD_FLAGS = {
  "--help": { kind: "boolean", description: "print this help and exit" },
  "--build-metadata": {
    kind: "boolean",
    description: "print the build metadata as one JSON line and exit (must be the only argument)",
  },
  "--diagnostics-directory": {
    kind: "value",
    value: "DIR",
    description:
      "owner-private (0700) directory for runnerd.stderr.log when the daemon fails; read first, in every mode",
  },
  "--run-id": {
    kind: "value",
    value: "ID",
    description: "the run this daemon serves (local mode, required)",
  },
  "--session-id": { kind: "value", value: "ID", description: "the harness session (local mode, required)" },
  "--runner-id": { kind: "value", value: "ID", description: "this runner's id (local mode, required)" },
  "--harness-command": {
    kind: "value",
    value: "CMD",
    description: "the harness executable, speaking the harness protocol on stdin/stdout",
  },
  "--harness-arg": {
    kind: "repeatable",
    value: "ARG",
    description: "one argument of the harness (repeatable, verbatim)",
  },
  "--fake-harness": {
    kind: "value",
    value: "PATH",
    description:
      "use the built-in scripted harness (with --script); PATH is upstream's fake-harness binary, accepted and not run",
  },
  "--fake-harness-script": {
    kind: "value",
    value: "FILE",
    description:
      "durable mode: the scripted harness's JSON script (same formats as --script); a path that does not exist runs the built-in script",
  },
  "--script": {
    kind: "value",
    value: "FILE",
    description:
      "the scripted harness's JSON script: this package's format or upstream's paperclip.fake_harness.script.v1",
  },
  "--delay-ms": {
    kind: "value",
    value: "MS",
    description: "replaces the time of every delay step of an upstream script",
  },
  "--log-max-lines": {
    kind: "value",
    value: "N",
    description: "lines kept in harness.exited's log tail (default 32)",
  },
  "--log-max-bytes": {
    kind: "value",
    value: "N",
    description: "bytes kept in harness.exited's log tail (default 16384)",
  },
  "--shutdown-grace-ms": {
    kind: "value",
    value: "MS",
    description: "SIGTERM to SIGKILL when the harness is stopped (default 100)",
  },
  "--command-history-limit": {
    kind: "value",
    value: "N",
    description: "commands the journal holds; a new one past it is rejected (default 4096)",
  },
  "--controller-max-line-bytes": {
    kind: "value",
    value: "N",
    description: "the longest controller line read; a longer one is reported and skipped (default 65536)",
  },
  "--harness-max-line-bytes": {
    kind: "value",
    value: "N",
    description: "the longest harness stdout or stderr line read (default 65536)",
  },
  "--state-dir": {
    kind: "value",
    value: "DIR",
    description:
      "durable state directory (created 0700): command journal and event outbox, exactly once across restarts",
  },
  "--connect-url": {
    kind: "value",
    value: "URL",
    description: "durable mode: dial the Paperclip server at this ws:// (loopback) or wss:// URL",
  },
  "--ca-bundle-path": {
    kind: "value",
    value: "FILE",
    description: "durable mode: PEM CA bundle to verify a wss:// server",
  },
  "--listen-address": {
    kind: "value",
    value: "ADDR",
    description: "durable mode: accept the server's WebSocket on this address instead of dialling",
  },
  "--listen-port": { kind: "value", value: "PORT", description: "durable mode: the port to listen on" },
  "--listen-path": {
    kind: "value",
    value: "PATH",
    description: "durable mode: the HTTP path of the WebSocket",
  },
  "--environment-lease-id": {
    kind: "value",
    value: "ID",
    description: "durable mode: the environment lease (required)",
  },
  "--turn-id": {
    kind: "value",
    value: "ID",
    description: "durable mode: the turn every event is bound to (required)",
  },
  "--item-id": {
    kind: "value",
    value: "ID",
    description: "durable mode: the item every event is bound to (required)",
  },
  "--runner-version": {
    kind: "value",
    value: "VERSION",
    description: "durable mode: echoed to the server exactly as given (required)",
  },
  "--runner-digest": {
    kind: "value",
    value: "DIGEST",
    description: "durable mode: sha256:<hex> of the launched file, echoed exactly as given (required)",
  },
  "--max-outbox-bytes": {
    kind: "value",
    value: "BYTES",
    description: "durable mode: bound of the unacknowledged events kept on disk (default 64 MiB)",
  },
  "--p0-reserve-bytes": {
    kind: "value",
    value: "BYTES",
    description: "durable mode: the top of the outbox only priority-0 events may use (default 1 MiB)",
  },
  "--reconnect-delay-ms": {
    kind: "value",
    value: "MS",
    description: "durable mode: pause between reconnect attempts (250)",
  },
  "--reconnect-grace-ms": {
    kind: "value",
    value: "MS",
    description: "durable mode: how long reconnecting may fail before the runner stops, state kept (30000)",
  },
  "--max-lifetime-ms": {
    kind: "value",
    value: "MS",
    description: "durable mode: stop the run after this long (0: unlimited)",
  },
  "--max-runtime-ms": {
    kind: "value",
    value: "MS",
    description: "durable mode: older name of --max-lifetime-ms",
  },
  "--lifecycle-mode": { kind: "value", value: "MODE", description: "durable mode: per_turn or warm" },
  "--idle-timeout-ms": {
    kind: "value",
    value: "MS",
    description: "durable mode, warm: idle time before suspending",
  },
  "--acpx-launch-authority-digest": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (acpx): reported and ignored",
  },
  "--acpx-sidecar-command": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (acpx): reported and ignored",
  },
  "--acpx-sidecar-command-sha256": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (acpx): reported and ignored",
  },
  "--acpx-sidecar-script": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (acpx): reported and ignored",
  },
  "--acpx-sidecar-script-sha256": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (acpx): reported and ignored",
  },
  "--opencode-proxy-command": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (opencode): the OpenCode launch profile, checked by sha256",
  },
  "--opencode-proxy-command-sha256": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (opencode): the OpenCode launch profile, checked by sha256",
  },
  "--opencode-proxy-script": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (opencode): the OpenCode launch profile, checked by sha256",
  },
  "--opencode-proxy-script-sha256": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (opencode): the OpenCode launch profile, checked by sha256",
  },
  "--opencode-executable": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (opencode): the OpenCode launch profile, checked by sha256",
  },
  "--opencode-executable-sha256": {
    kind: "value",
    value: "VALUE",
    description: "provider profile (opencode): the OpenCode launch profile, checked by sha256",
  },
  "--sandbox-workspace": {
    kind: "value",
    value: "DIR",
    description: "run the harness in the bubblewrap sandbox with this writable workspace",
  },
  "--sandbox-allow": {
    kind: "repeatable",
    value: "HOST",
    description: "a host the sandboxed harness may reach (repeatable)",
  },
} as const satisfies Record<string, FlagDefinition>;

export type RunnerdFlagName = keyof typeof RUNNERD_FLAGS;
