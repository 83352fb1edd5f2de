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
