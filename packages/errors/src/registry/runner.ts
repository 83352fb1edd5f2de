import type { RegistryTable } from "./entry.js";

/** Codes thrown by `@paperclipai/paperclip-runner`. Owned by the runner team. */
export const runnerRegistry = {
  ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS: {
    family: "runner",
    title: "Runner diagnostics directory is accessible by group or other users",
    message: "runner diagnostics directory is accessible by group or other users",
    meaning:
      "Before `paperclip-runnerd` persists a diagnostic (which can contain run data), it checks the directory given with `--diagnostics-directory`. Its mode has a group or other permission bit (`mode & 0o077 != 0`), so other users could read or replace the diagnostic. The daemon refuses rather than warns, and never changes the mode itself.",
    when: "The launcher created the directory with a permissive umask (0022 gives 0755, 0002 gives 0775), provisioning tooling applied a shared mode, or the directory was copied from a shared location. `details.mode` shows the mode found.",
    solutions: [
      "Run `chmod 700 <diagnostics-dir>` to strip the group and other bits.",
      "Create the directory with `mkdir -m 700` (or `fs.mkdir(dir, { mode: 0o700 })` under `umask 077`) in the launcher.",
      "Check that the directory is owned by the user the daemon runs as (`stat -c '%U %a' <dir>`).",
      "Restart `paperclip-runnerd` after fixing the mode.",
    ],
    prevention:
      "Let the launcher create the diagnostics directory itself with mode 0700 just before starting the daemon, and never share it between users.",
    example: `mkdir -m 700 /var/lib/paperclip/diagnostics
paperclip-runnerd --diagnostics-directory /var/lib/paperclip/diagnostics ...`,
  },
} as const satisfies RegistryTable<"RUNNER", "runner">;
