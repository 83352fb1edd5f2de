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
  ERR_RUNNER_DIAGNOSTICS_PATH_NOT_DIRECTORY: {
    family: "runner",
    title: "Runner diagnostics path is not a real directory",
    message: "runner diagnostics path is not a real directory",
    meaning:
      "The path given with `--diagnostics-directory` exists but is a symbolic link, a regular file, a socket or another non-directory (`lstat` does not follow links). The daemon only writes diagnostics into a real directory it can check, because a link could point the diagnostic (which can contain run data) anywhere. `details.kind` says what was found.",
    when: "The launcher passed a file path instead of its directory, a deployment replaced the directory with a symlink to a shared location, or a previous tool created a file of that name.",
    solutions: [
      "Check what is at the path: `stat -c '%F %U %a' <diagnostics-dir>`.",
      "Remove the link or file and create a real directory: `rm <diagnostics-dir> && mkdir -m 700 <diagnostics-dir>`.",
      "If the diagnostics must live elsewhere, pass that real directory to `--diagnostics-directory` instead of linking to it.",
    ],
    prevention:
      "Let the launcher create the diagnostics directory with `mkdir -m 700` just before starting the daemon, and pass the directory itself, never a symlink.",
    example: `mkdir -m 700 /var/lib/paperclip/diagnostics
paperclip-runnerd --diagnostics-directory /var/lib/paperclip/diagnostics ...`,
  },
  ERR_RUNNER_DIAGNOSTICS_DIR_OWNER: {
    family: "runner",
    title: "Runner diagnostics directory is not owned by the daemon's user",
    message: "runner diagnostics directory is not owned by the daemon's effective user",
    meaning:
      "The diagnostics directory is a real, owner-private directory, but its owner is not the effective uid of `paperclip-runnerd`. Whoever owns it can read, replace or remove the diagnostic, so the daemon refuses it (as OpenSSH StrictModes does for `~/.ssh`). `details.uid` is the owner found, `details.euid` the daemon's effective uid. Upstream has no such check.",
    when: "The launcher created the directory as another user (for example as root, then started the daemon as a service user), or the directory was restored from a backup or copied with its original owner.",
    solutions: [
      "Give the directory to the daemon's user: `chown <daemon-user> <diagnostics-dir>` (`details.euid` is that user's uid).",
      "Or create the directory as the daemon's user: `sudo -u <daemon-user> mkdir -m 700 <diagnostics-dir>`.",
      "Restart `paperclip-runnerd` after fixing the owner.",
    ],
    prevention:
      "Create the diagnostics directory as the same user that runs the daemon, right before starting it.",
    example: `sudo -u paperclip mkdir -m 700 /var/lib/paperclip/diagnostics`,
  },
  ERR_RUNNER_DIAGNOSTICS_DIR_MISSING: {
    family: "runner",
    title: "Runner diagnostics directory cannot be looked up",
    message: "${osError}",
    meaning:
      "The message is the OS error verbatim, for example `ENOENT: no such file or directory, lstat '<diagnostics-dir>'`. The operating system refused to look up (`lstat`) or open the diagnostics directory, most often because it does not exist (ENOENT) or a parent is not a directory (ENOTDIR); a daemon that cannot search its parent gets EACCES, one out of descriptors EMFILE. `details.errno` holds its code (ENOENT, ENOTDIR, ELOOP, EACCES) and `details.syscall` the call. The daemon never creates this directory: its caller does.",
    when: "The launcher forgot to create the directory, removed it (for example a cleanup of a previous run) before starting the daemon, or passed a relative path from another working directory.",
    solutions: [
      "Create the directory before starting the daemon: `mkdir -m 700 <diagnostics-dir>`.",
      "Pass an absolute path to `--diagnostics-directory`.",
      "For ENOTDIR or ELOOP, check every parent of the path with `namei -l <diagnostics-dir>`.",
    ],
    prevention:
      "Create the diagnostics directory in the launcher with mode 0700 immediately before spawning the daemon, and use absolute paths.",
  },
  ERR_RUNNER_DIAGNOSTICS_DIR_SWAPPED: {
    family: "runner",
    title: "Runner diagnostics directory changed between check and use",
    message: "runner diagnostics directory changed between check and use",
    meaning:
      "The daemon checks the diagnostics directory with `lstat`, then opens it with `O_DIRECTORY|O_NOFOLLOW` and checks that the descriptor is the same directory (device and inode), and checks it again before the final rename. Here the path pointed at something else the second time: it was removed, replaced or turned into a symlink while the daemon was using it. This is what a symlink race looks like, so the daemon writes nothing.",
    when: "Another process (a cleanup job, a second launcher, or an attacker with write access to the parent directory) renamed or replaced the directory at the same moment the daemon was persisting a diagnostic.",
    solutions: [
      "Find what else touches the directory's parent (`auditctl -w <parent> -p wa`, or the launcher's cleanup code) and stop it from replacing the directory while a daemon runs.",
      "Make the parent directory writable only by the daemon's user (`chmod 700 <parent>`), so nobody else can swap its entries.",
      "Restart the run; the next failure is persisted normally once the directory is stable.",
    ],
    prevention:
      "Keep the diagnostics directory inside a parent that only the daemon's user can write, and clean it up only after the daemon has exited.",
  },
  ERR_RUNNER_DIAGNOSTICS_TEMP_EXHAUSTED: {
    family: "runner",
    title: "Could not allocate a runner diagnostic temporary file",
    message: "could not allocate a runner diagnostic temporary file",
    meaning:
      "The diagnostic is first written to `.runnerd.stderr.log.<pid>.<attempt>.tmp` with an exclusive create, for attempts 0 to 31; an existing name moves on to the next attempt. All 32 names for this process id already existed, so no temporary file could be created and nothing was written. Temporary files of dead processes are swept before writing, so these belong to a live process with the same pid (another pid namespace) or were created on purpose.",
    when: "Two daemons in different pid namespaces (containers) share one diagnostics directory and have the same pid, or something pre-created the temporary names.",
    solutions: [
      "List the leftovers: `ls -la <diagnostics-dir>/.runnerd.stderr.log.*.tmp`, and remove them when no daemon is running.",
      "Give each daemon its own diagnostics directory (one per run), especially across containers.",
    ],
    prevention: "Use one diagnostics directory per daemon invocation; never share one between containers.",
  },
  ERR_RUNNER_DIAGNOSTICS_WRITE_FAILED: {
    family: "runner",
    title: "Writing the runner diagnostic failed",
    message: "${osError}",
    meaning:
      "The message is the OS error verbatim, for example `EACCES: permission denied, open '<diagnostics-dir>/.runnerd.stderr.log.<pid>.0.tmp'`. The diagnostics directory passed its checks, but creating, writing, syncing or renaming the temporary file failed. `details.errno` and `details.syscall` name it. The temporary file was removed, so `runnerd.stderr.log` is either the previous diagnostic or absent, never a partial one. The daemon also printed the original failure to stderr.",
    when: "The directory is owner-private but not writable by its owner (mode 0500 for a non-root daemon: EACCES), the filesystem is full (ENOSPC) or read-only (EROFS), or `runnerd.stderr.log` is a directory (EISDIR). A root daemon bypasses the mode bits, so 0500 is written anyway.",
    solutions: [
      "For EACCES, give the owner write permission: `chmod 700 <diagnostics-dir>`.",
      "For ENOSPC or EROFS, free space or move `--diagnostics-directory` to a writable filesystem (`df -h <diagnostics-dir>`).",
      "For EISDIR, remove whatever occupies `runnerd.stderr.log` in the directory.",
    ],
    prevention:
      "Create the diagnostics directory with mode 0700 (owner read, write and search) on a filesystem with free space.",
  },
  ERR_RUNNER_MISSING_ARGUMENT: {
    family: "runner",
    title: "A required paperclip-runnerd argument is missing",
    message: "missing required argument ${name}",
    meaning:
      "`paperclip-runnerd` was started in a mode that needs the flag `${name}` (for example `--run-id`, `--session-id` or `--runner-id` in local mode) and the command line does not contain it. `details.name` is the flag. The daemon exits 1 before starting anything.",
    when: "The launcher is older or newer than the daemon and passes a different set of flags, or a wrapper script dropped arguments.",
    solutions: [
      "Add the flag to the launcher's command line (`paperclip-runnerd --help` lists every flag).",
      "Check that the launcher and the daemon versions match: `paperclip-runnerd --build-metadata` prints the binary contract version.",
    ],
    prevention:
      "Pin the launcher and the daemon to compatible versions and test the launcher's exact argv against `paperclip-runnerd`.",
    example:
      "paperclip-runnerd --run-id run_1 --session-id session_1 --runner-id runner_1 --fake-harness builtin --script script.json",
  },
  ERR_RUNNER_MISSING_VALUE: {
    family: "runner",
    title: "A paperclip-runnerd flag has no value",
    message: "missing value for ${name}",
    meaning:
      "Flags are `--name value` pairs. The flag `${name}` is the last argument, or is directly followed by another known flag, so it has no value. `details.name` is the flag.",
    when: "A variable in the launcher's command line expanded to nothing (`--script $SCRIPT` with `SCRIPT` unset is dropped by word splitting), or a value was forgotten.",
    solutions: [
      "Give the flag its value: `--name value`.",
      'Quote variables in launcher scripts (`--script "$SCRIPT"`), so an empty value is passed as an empty argument instead of vanishing.',
    ],
    prevention:
      "Build the daemon's argv as an array in the launcher (never a shell string) and validate every value before spawning.",
  },
  ERR_RUNNER_INVALID_ARGUMENT: {
    family: "runner",
    title: "A paperclip-runnerd argument is invalid",
    message: "invalid ${name}: ${reason}",
    meaning:
      "The flag `${name}` has a value, but the value cannot be used; `${reason}` says why (for example `must not be empty`, or `must be the only argument` for `--build-metadata`). `details.name` is the flag and `details.reason` the reason; the value itself is never repeated, since it could be a secret.",
    when: "A launcher passes an empty value, combines `--build-metadata` with other flags, or passes a value in a format the flag does not accept.",
    solutions: [
      "Read the reason and correct the value (`paperclip-runnerd --help` describes each flag).",
      "Run `paperclip-runnerd --build-metadata` on its own, without other flags.",
    ],
    prevention:
      "Validate values in the launcher before spawning the daemon, and keep launcher and daemon versions in step.",
  },
  ERR_RUNNER_PRIVATE_DIR_NOT_DIRECTORY: {
    family: "runner",
    title: "Private path is not a real directory",
    message: "private path is not a real directory",
    meaning:
      "A directory that must be owner-private (for example the `--state-dir` of the daemon) exists but is a symlink or not a directory (`lstat` does not follow links). Private data is only kept in a real directory whose owner and mode can be checked. `details.kind` says what was found.",
    when: "The path is a file or a symlink to another location, for example a state directory linked into a shared volume.",
    solutions: [
      "Check the path: `stat -c '%F %U %a' <path>`.",
      "Replace it with a real directory: `rm <path> && mkdir -m 700 <path>`, or pass the link's target directly.",
    ],
    prevention:
      "Let the daemon create its private directories itself (it uses mode 0700), or create them with `mkdir -m 700`; never link them.",
  },
  ERR_RUNNER_PRIVATE_DIR_PERMISSIONS: {
    family: "runner",
    title: "Private directory is accessible by group or other users",
    message: "private directory is accessible by group or other users",
    meaning:
      "A directory that must be owner-private (for example the durable `--state-dir`) has a group or other permission bit (`mode & 0o077 != 0`), so other users could read or replace the files inside. The daemon refuses it and does not change the mode itself. `details.mode` is the mode found.",
    when: "The directory was created by hand or by tooling with a permissive umask (0755, 0775), or copied from a shared location.",
    solutions: [
      "Run `chmod 700 <path>`.",
      "Check the files inside too: `chmod 600 <path>/*`.",
      "Restart the daemon after fixing the mode.",
    ],
    prevention:
      "Let the daemon create the directory (mode 0700, checked after creation), or create it with `mkdir -m 700`.",
  },
  ERR_RUNNER_PRIVATE_DIR_OWNER: {
    family: "runner",
    title: "Private directory is not owned by the daemon's user",
    message: "private directory is not owned by the effective user",
    meaning:
      "A directory that must be owner-private is owned by another uid than the daemon's effective uid, so its owner could read or replace the daemon's files. `details.uid` is the owner found, `details.euid` the daemon's effective uid.",
    when: "The directory was created by root or another service user, or restored with its original owner.",
    solutions: [
      "Run `chown <daemon-user> <path>` (`details.euid` is the uid to give it to).",
      "Or remove it and let the daemon create it as its own user.",
    ],
    prevention: "Create private directories as the user that runs the daemon.",
  },
  ERR_RUNNER_PRIVATE_DIR_MISSING: {
    family: "runner",
    title: "Private directory cannot be looked up or created",
    message: "${osError}",
    meaning:
      "The message is the OS error verbatim, for example `ENOENT: no such file or directory, lstat '<path>'`. The operating system refused to look up, open (or, for a directory the daemon creates, to create) an owner-private directory. `details.errno` holds its code and `details.syscall` the call.",
    when: "The directory or one of its parents does not exist (ENOENT), a parent is a file (ENOTDIR), or the filesystem refuses the mkdir (EACCES, EROFS, ENOSPC).",
    solutions: [
      "Create the parent directory first, or pass an absolute path that exists.",
      "For EACCES or EROFS, choose a location on a writable filesystem owned by the daemon's user.",
    ],
    prevention: "Pass absolute paths under a directory the daemon's user owns.",
  },
  ERR_RUNNER_PRIVATE_DIR_SWAPPED: {
    family: "runner",
    title: "Private directory changed between check and use",
    message: "private directory changed between check and use",
    meaning:
      "The private directory was checked with `lstat`, then opened with `O_DIRECTORY|O_NOFOLLOW`; the descriptor is not the directory that was checked (device or inode differ, or the open found a symlink or nothing), or the path no longer names the opened directory before the final rename. Something replaced it while the daemon was using it, which is what a symlink race looks like.",
    when: "A cleanup job, a second daemon or another user with write access to the parent renamed or replaced the directory concurrently.",
    solutions: [
      "Stop whatever replaces the directory while the daemon runs.",
      "Make the parent directory writable only by the daemon's user.",
    ],
    prevention: "Keep private directories in a parent that only the daemon's user can write.",
  },
  ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR: {
    family: "runner",
    title: "Private path is not a regular file",
    message: "private path is not a regular file",
    meaning:
      "A file that must be owner-private (for example `runner-state.json`) was opened with `O_NOFOLLOW`, and it is a symlink (the open fails with ELOOP), a directory, a FIFO or a device, or a regular file with more than one name (a hard link: what the daemon wrote or truncated would land in the other file too; `details.kind` is `hard-link`, `details.nlink` the link count). Private data is only read from, and written to, regular files of one link. `details.kind` says what was found.",
    when: "The file was replaced by a symlink (possibly to a file of another user), a directory or FIFO of that name was created, or another file was hard-linked under its name (or it was hard-linked elsewhere).",
    solutions: [
      "Check it: `stat -c '%F %U %a %h' <path>` (the last field is the link count).",
      "Remove it if it is not yours; the daemon recreates its files with the atomic private write.",
    ],
    prevention: "Keep private files inside a private (0700) directory that only the daemon's user can write.",
  },
  ERR_RUNNER_PRIVATE_FILE_PERMISSIONS: {
    family: "runner",
    title: "Private file is accessible by group or other users",
    message: "private file is accessible by group or other users",
    meaning:
      "A file that must be owner-private has a group or other permission bit (`mode & 0o077 != 0`), so other users could read it. The daemon refuses to use it rather than warn. `details.mode` is the mode found.",
    when: "The file was copied or edited by hand with a permissive umask, or restored from a backup that lost the modes.",
    solutions: ["Run `chmod 600 <path>`.", "Check the directory too: `chmod 700 <dir>`."],
    prevention:
      "Let the daemon write its private files (it creates them 0600 and `fchmod`s them); do not edit them in place.",
  },
  ERR_RUNNER_PRIVATE_FILE_OWNER: {
    family: "runner",
    title: "Private file is not owned by the daemon's user",
    message: "private file is not owned by the effective user",
    meaning:
      "A file that must be owner-private is owned by another uid than the daemon's effective uid. `details.uid` is the owner found, `details.euid` the daemon's effective uid.",
    when: "The file was created by another user (for example by running the daemon once as root), or restored with its original owner.",
    solutions: ["Run `chown <daemon-user> <path>`.", "Or remove it if its content is not needed."],
    prevention: "Always run the daemon as the same user for a given state or diagnostics directory.",
  },
  ERR_RUNNER_PRIVATE_FILE_UNAVAILABLE: {
    family: "runner",
    title: "Private file cannot be opened",
    message: "${osError}",
    meaning:
      "The message is the OS error verbatim, for example `ENOENT: no such file or directory, open '<path>'`. Opening an owner-private file failed with an OS error other than a symlink refusal. `details.errno` holds its code (ENOENT when the file does not exist yet) and `details.syscall` the call.",
    when: "The file was never written (first start), was removed, or a parent directory is missing.",
    solutions: [
      "For ENOENT, check whether the file is expected to exist yet (callers that create the file treat ENOENT as empty state).",
      "For other codes, check the directory with `namei -l <path>`.",
    ],
    prevention:
      "Read private files only after the directory check, and create them with the atomic private write.",
  },
  ERR_RUNNER_PRIVATE_WRITE_TEMP_EXHAUSTED: {
    family: "runner",
    title: "Could not allocate a private temporary file",
    message: "could not allocate a private temporary file",
    meaning:
      "The atomic private write creates `.<name>.<pid>.<attempt>.tmp` with an exclusive create, attempts 0 to 31; all 32 names for this process id already exist, so nothing was written. Temporary files of dead processes are swept before each write, so these belong to a live process with the same pid (another pid namespace) or were created on purpose. `details.name` is the file that was to be written.",
    when: "Two processes in different pid namespaces with the same pid write into one directory, or the names were pre-created.",
    solutions: [
      "List and remove the leftovers when no daemon runs: `ls -la <dir>/.<name>.*.tmp`.",
      "Give each daemon its own private directory.",
    ],
    prevention: "Never share one private directory between containers.",
  },
  ERR_RUNNER_PRIVATE_WRITE_FAILED: {
    family: "runner",
    title: "Atomic private write failed",
    message: "${osError}",
    meaning:
      "The message is the OS error verbatim, for example `ENOSPC: no space left on device, write`. Creating, writing, syncing or renaming the temporary file of an atomic private write failed. `details.errno` and `details.syscall` name it. The temporary file was removed, so the destination is still the previous version (or absent), never a partial file.",
    when: "The directory is not writable by its owner (EACCES for a non-root user in a 0500 directory), the filesystem is full (ENOSPC) or read-only (EROFS), or the destination is a directory (EISDIR).",
    solutions: [
      "For EACCES, `chmod 700 <dir>`.",
      "For ENOSPC or EROFS, free space or use a writable filesystem.",
      "For EISDIR, remove the directory that occupies the destination name.",
    ],
    prevention: "Keep private directories at mode 0700 on a filesystem with free space.",
  },
  ERR_RUNNER_STATE_BINDING_MISMATCH: {
    family: "runner",
    title: "Durable state belongs to another run",
    message: "durable state binding does not match this runner invocation",
    meaning:
      "The `--state-dir` holds a `runner-state.json` written for another run: its recorded `runId`, `sessionId` or `runnerId` differs from this invocation's flags. Adopting it would replay another run's journal (its receipts, its event numbering) into this one, so the daemon refuses to start. `details.mismatched` names the differing fields (never their values).",
    when: "A launcher reused one state directory for several runs, passed the wrong `--state-dir` after a restart, or restarted the daemon with a new `--runner-id` or `--session-id` for the same directory.",
    solutions: [
      "Restart the daemon with the same `--run-id`, `--session-id` and `--runner-id` it was first started with for this directory.",
      "For a new run, give the daemon a new, empty state directory (for example one named after the run id).",
      "If the old run is over and its journal no longer matters, remove the directory: `rm -r <state-dir>`.",
    ],
    prevention:
      "Derive the state directory from the run id (`<state-root>/<run-id>`), so one directory can only ever hold one run.",
    example: `paperclip-runnerd --run-id run-1 --session-id s-1 --runner-id r-1 --state-dir /var/lib/paperclip/runs/run-1 ...`,
  },
  ERR_RUNNER_STATE_CORRUPT: {
    family: "runner",
    title: "Durable state file is not valid",
    message: "durable state file is not valid: ${reason}",
    meaning:
      "`runner-state.json` in the `--state-dir` could be read but is not a state file this daemon understands (not JSON, another schema, or a malformed journal entry), a complete line of `runner-journal.ndjson` fails its CRC-32C checksum (each record carries one; only a torn last line, whose append never completed, is dropped as a crash leaves it), or the Codex provider's `codex-provider-state.json` beside it lists in `pendingEvents` a record that is not an event record (the next run would commit it as it stands), or holds a field the runner reads back malformed (a call id or thread id list, a `providerProcessGeneration` that is not a non-negative integer). The snapshot is written atomically, so this is not a torn write: it was edited, replaced, damaged on disk, or written by an incompatible version. The daemon never repairs it, because guessing could run a command twice. `details.reason` says what is wrong.",
    when: "Someone edited the file or its journal by hand, copied a file of another tool over it, the disk flipped bits of it, or the daemon was downgraded to a version with an older state schema.",
    solutions: [
      "Restore the file from where it came (the daemon only ever replaces it atomically), or run the version of the daemon that wrote it.",
      "If the run can be abandoned, move the directory away and start with an empty one: `mv <state-dir> <state-dir>.broken`.",
    ],
    prevention:
      "Never edit `runner-state.json` or `codex-provider-state.json`; keep daemon versions in step for a given state directory.",
  },
  ERR_RUNNER_STATE_LOCKED: {
    family: "runner",
    title: "Durable state is in use by another daemon",
    message: "durable state is in use by another runner process (pid ${pid})",
    meaning:
      "Another live `paperclip-runnerd` holds the `runner.lock` of this `--state-dir`. Two daemons on one journal would each apply commands the other already applied, which is exactly what the journal exists to prevent, so the second one refuses to start. A lock left by a daemon that died (even by SIGKILL) is recognised by its pid and process start time and taken over, so this only happens while the holder is alive. `details.pid` is the holder.",
    when: "A launcher restarted the daemon without waiting for the previous one to exit, or two launchers were given the same state directory.",
    solutions: [
      "Wait for the process with `details.pid` to exit, or stop it (`kill <pid>`), then start the daemon again.",
      "Give each run its own state directory.",
    ],
    prevention:
      "Start a replacement daemon only after the previous one has exited; derive state directories from the run id.",
  },
  ERR_RUNNER_STATE_LOCK_FAILED: {
    family: "runner",
    title: "Durable state lock cannot be created",
    message: "${osError}",
    meaning:
      "The message is the OS error verbatim, for example `EPERM: operation not permitted, open '<state-dir>/runner.lock.<pid>.<token>.tmp'`. Before it reads the journal, the daemon writes its lock to a private temporary file in the `--state-dir` (exclusive, no-follow, 0600) and links it to `runner.lock`, so that no second daemon works on the same journal and none sees a half-written lock; the operating system refused to create or link it. Nothing was read or written. `details.errno` and `details.syscall` name the failure.",
    when: "The state directory is on a read-only or full filesystem (EROFS, ENOSPC), is marked immutable (`chattr +i`, EPERM even for root), or is not writable by its owner (EACCES for a non-root daemon in a 0500 directory).",
    solutions: [
      "Check the directory: `lsattr -d <state-dir>; stat -c '%U %a' <state-dir>; df -h <state-dir>`.",
      "Make it writable by its owner (`chmod 700 <state-dir>`, `chattr -i <state-dir>`), or free space.",
      "Or point `--state-dir` at a private directory on a writable filesystem.",
    ],
    prevention: "Keep state directories at mode 0700 on a local, writable filesystem with free space.",
  },
  ERR_RUNNER_DURABLE_TICKET_MISSING: {
    family: "runner",
    title: "Durable mode started without a bootstrap ticket",
    message: "durable mode requires the bootstrap ticket in PAPERCLIP_RUNNER_BOOTSTRAP_TICKET",
    meaning:
      "`paperclip-runnerd` was started in durable mode (`--connect-url` or the listen flags) but its environment has no `PAPERCLIP_RUNNER_BOOTSTRAP_TICKET`, or it is empty. The ticket is the one-time credential the runner proves to the Paperclip server; without it the runner cannot authenticate, so it stops before connecting. The state directory is left as it was.",
    when: "The runner was started by hand or by a launcher that filters the environment, or a wrapper script ran it through `env -i` or `sudo` (which drop the variable).",
    solutions: [
      "Let the Paperclip server launch the runner (its `spawnRunner` sets the ticket), or ask the server for a fresh ticket and pass it in the variable.",
      "If a wrapper starts the runner, keep `PAPERCLIP_RUNNER_BOOTSTRAP_TICKET` in its environment (`sudo --preserve-env=PAPERCLIP_RUNNER_BOOTSTRAP_TICKET`).",
    ],
    prevention:
      "Pass the ticket only through the environment of the runner process; never write it to a file or a command line, where other users could read it.",
  },
  ERR_RUNNER_DURABLE_SERVER_PROOF: {
    family: "runner",
    title: "The server did not prove it holds the runner's credential",
    message: "durable handshake failed: ${reason}",
    meaning:
      "During the durable handshake the server answers `auth_hello` with an `auth_challenge` carrying `serverProof`, an HMAC over the challenge keyed with the credential's key. The runner checks it before it sends anything else: the proof was missing or malformed, did not match, the challenge did not echo the runner's nonce, credential or run identity, or it did not name the credential's lease: a ticket's challenge must say `bootstrap` and name no lease, and a reconnect's must say `lease` and name the lease id and revocation epoch that the ticket's welcome bound, exactly (another id, a lower or a higher epoch: upstream's runner refuses these too: `authentication challenge changed the credential lease binding`). A server that cannot prove this may be an impostor, so the runner closes the connection without answering. The durable state is kept. A lease reconnect's challenge must also not name a `credentialExpiresAtUnixMs` that has passed, counted from the lease the runner holds on its monotonic clock (upstream's runner does not answer such a challenge either). `details.reason` is one of `missing_proof`, `wrong_proof`, `mismatch`, `lease_binding`, `credential_expiry`, `version`, `not_a_challenge`, `oversized` (an answer larger than 64 KiB, refused unread: a challenge is under a kilobyte).",
    when: "`--connect-url` points at something other than the Paperclip server that issued the ticket (a stale port reused by another process, a proxy that rewrites messages), or the ticket belongs to another server's state.",
    solutions: [
      "Check that `--connect-url` is the URL the server printed for this run, and that nothing between the runner and the server rewrites WebSocket messages.",
      "Restart the run from the server so that it issues a fresh ticket for itself.",
    ],
    prevention: "Use `wss://` with `--ca-bundle-path` for any connection that leaves the machine.",
  },
  ERR_RUNNER_DURABLE_FRAME_INVALID: {
    family: "runner",
    title: "A secure frame from the server was refused",
    message: "bad secure frame: ${reason}",
    meaning:
      "After the handshake every message is an AES-256-GCM secure frame bound to the session, the direction and its counter. A frame from the server was not a secure frame, failed authentication (its bytes were changed, or it belongs to another session or direction), did not hold JSON, held JSON nested deeper than 127 levels (upstream's serde_json limit; `details.reason` `depth`, also checked on the handshake's plain messages), or held a message the protocol does not allow at that point (a `welcome` or `lease_renewed` whose lease expiry is not a finite number, say: `1e400` reads as Infinity, a lease that never lapses; `details.reason` `welcome` or `lease`; a `lease_renewed` whose `previousExpiresAtUnixMs` is not the expiry the runner's `lease_renew` asked about, that answers no `lease_renew` outstanding on the connection, or that moves the expiry back, reason `lease`; a `welcome` granting a lease already expired when it was sent, reason `welcome`; a `revoke` that does not advance the revocation epoch, reason `revoke`; or a reconnect's `welcome` that does not continue the lease the handshake authenticated with, naming another lease id or revocation epoch or granting a new lease token, `details.reason` `lease_binding`; or a message whose envelope names another connection, lease, run identity, protocol or version than the connection's, `details.reason` `envelope`: the server stamps every message with them, and upstream's runner closes a connection on any other). The runner closes the connection and keeps its durable state: nothing from the frame was applied. `details.reason` says which check failed.",
    when: "Something between the server and the runner altered a frame, a proxy buffered and reordered connections, or the server's protocol version is not one this runner speaks.",
    solutions: [
      "Look for a proxy or load balancer on the path that rewrites or merges WebSocket messages; connect directly.",
      "Restart the runner: it resumes from its durable state and resends what the server has not acknowledged.",
    ],
    prevention:
      "Run the runner and the server from matching releases; do not put message-rewriting middleboxes on the runner's connection.",
  },
  ERR_RUNNER_DURABLE_FRAME_COUNTER: {
    family: "runner",
    title: "A secure frame arrived out of order",
    message: "secure frame counter out of order: expected ${expected}, got ${received}",
    meaning:
      "Each direction of a durable connection numbers its frames from 0 and the receiver accepts only the next number. A server frame carried another counter: a frame was replayed, dropped or reordered. The runner closes the connection without applying it and keeps its durable state; the next connection starts new counters.",
    when: "An attacker or a faulty proxy replayed or dropped a frame, or two connections were spliced together.",
    solutions: [
      "Remove whatever sits between the runner and the server and rewrites the stream.",
      "Restart the runner: it resumes from its durable state.",
    ],
    prevention: "Connect the runner to the server directly or through a plain TCP/TLS tunnel.",
  },
  ERR_RUNNER_DURABLE_LEASE_EXPIRED: {
    family: "runner",
    title: "The connection lease expired or was refused",
    message: "connection lease expired or was revoked; durable state is preserved",
    meaning:
      "After its first handshake the runner reconnects with the connection lease from the server's `welcome`, not with the one-time ticket (which is spent). The lease had expired, counted on the server's clock (the time its `welcome` or `lease_renewed` gave, the expiry less the frame's `sentAt`, from the frame's arrival on a monotonic clock; the runner's wall clock stands in only for a frame without a `sentAt`), so a runner whose clock is off from the server's lapses neither early nor late (while connected too: a lease that reaches its expiry with no `lease_renewed` answering the runner's `lease_renew` ends the connection, as upstream's runner does, so a server that stalls or a relay that keeps the socket open and drops every frame cannot hold the runner for ever), or the server closed the connection instead of answering `auth_hello` with a challenge (which it does for an expired or revoked lease). In listen mode such a close cannot be told from that of another peer that reached the port (any local user on loopback), so it is not taken as a refusal: the runner keeps accepting connections until one proves the credential, and stops with this error when the lease lapses. A runner process cannot obtain a new credential by itself, so it stops, keeping its durable state; the server restarts it with a fresh ticket and it resumes where it was. `details.expiresAtUnixMs` is the lease's expiry as the server stated it (on its clock).",
    when: "The connection was down longer than the lease lasts (the server's `connectionLeaseTtlMs`, 60 s by default), the server did not answer the renewal before the lease ran out, the machine was suspended, or the server revoked the lease (another runner for the same run authenticated).",
    solutions: [
      "Let the server restart the runner (its launcher's `restart(ticket)` does this); the new process resumes from the state directory.",
      "Look at why the connection was down for so long (network, a suspended VM).",
    ],
    prevention:
      "Keep the runner and the server on a reliable network; give the server a lease TTL longer than the outages you expect.",
  },
  ERR_RUNNER_DURABLE_LEASE_REVOKED: {
    family: "runner",
    title: "The server revoked the connection lease",
    message:
      "connection lease revoked by the server at revocation epoch ${revocationEpoch}; durable state is preserved",
    meaning:
      "The server sent `revoke` on the authenticated connection, naming (as `payload.revocationEpoch`) a revocation epoch above the one the connection was authenticated with: this runner's connection lease no longer holds. As upstream's runner does, the runner stops at once: nothing more from the connection is applied, no reconnect is tried, the harness and any provider processes are stopped, and `runner-state.json` says `lifecycle: \"revoked\"` with this summary in its `diagnostics` (outbox and command journal as they were). This is an outcome, not a failure: the process exits 0, as upstream's does, and the code is written to stderr and the state file. A `revoke` that does not advance the epoch (the same or a lower one, or none) is a bad frame instead (`ERR_RUNNER_DURABLE_FRAME_INVALID`, reason `revoke`). `details.revocationEpoch` is the epoch the server named.",
    when: "The server (or an operator through it) withdrew this runner's authority over the run: another runner took it over, or the run was moved or cancelled.",
    solutions: [
      "Nothing to do on the runner: the server decides whether the run continues elsewhere, and launches a runner with a fresh ticket if it does.",
      "If it was unexpected, look at the server's log for why it revoked the lease.",
    ],
    prevention: "None needed: revocation is the server's decision.",
  },
  ERR_RUNNER_DURABLE_STATE_REVOKED: {
    family: "runner",
    title: "The run in the state directory was revoked",
    message: "the state directory holds a run whose connection lease the server revoked; it is not resumed",
    meaning:
      "`runner-state.json` in `--state-dir` says `lifecycle: \"revoked\"`: an earlier runner stopped there because the server revoked its connection lease (`ERR_RUNNER_DURABLE_LEASE_REVOKED`). A revocation is the server's decision that this runner no longer serves the run, so the run is not resumed: the runner refuses before it recovers the state (the file stays as the revocation left it), before any connection is opened (so no handshake spends the ticket), and before any harness or provider starts, and exits 1. Upstream's runner does not resume a revoked state either (it exits 0 at once, saying nothing). Before 2026-12-06 a relaunch resumed the revoked run as if nothing had happened.",
    when: "A runner was launched again for the revoked run. The server's launcher keeps one state directory per run (`runtime/paperclip-runner/runner/<runId>` under the instance root, or `runtime/paperclip-runner/durable-sessions/<hash>` for a native session), so every runner launched for that run gets the same directory and is refused the same way; an operator restarting the runner by hand on that directory is refused too.",
    solutions: [
      "The revoked run does not continue on this directory, whatever relaunches it: the server decided this runner no longer serves it. To carry the work on, start a new run from the server: a run of its own gets a new directory (`runner/<runId>`).",
      "A native session's directory is keyed by the session, not the run (`durable-sessions/<hash>`): remove it (or move it aside to keep what it held) before the session's next run, which would be refused on it too. The same to reuse any such directory: what it holds belongs to the revoked run.",
      "Exit 1 only says that the runner refused; Paperclip's launcher takes exit 0 and exit 1 before the run's result alike (`paperclip_runner_process_exited`), so the code on stderr is what tells the two apart.",
    ],
    prevention:
      "After a revocation, start the next run from the server rather than relaunching the runner on the revoked run's directory, and clear a native session's directory before its next run.",
  },
  ERR_RUNNER_DURABLE_RECONNECT_DEADLINE: {
    family: "runner",
    title: "The runner could not reconnect in time",
    message: "transport reconnect deadline elapsed; durable state is preserved",
    meaning:
      "The durable connection to the server was lost and every reconnect attempt failed for `--reconnect-grace-ms` (default 30 s). The runner stops with its durable state intact: the outbox still holds every event the server has not acknowledged, and the journal every command result, so a restarted runner resumes without losing or repeating anything. `details.attempts` counts the attempts.",
    when: "The server stopped or restarted, the URL is wrong, or the network between them is down.",
    solutions: [
      "Check that the server is up and that `--connect-url` reaches it (`curl -i <url with http>` should answer 400 or 404, not refuse).",
      "Restart the run from the server; the runner resumes from the state directory.",
    ],
    prevention: "Set `--reconnect-grace-ms` above the longest server restart you expect.",
  },
  ERR_RUNNER_DURABLE_OUTBOX_FULL: {
    family: "runner",
    title: "The durable outbox is full",
    message: "durable outbox would exceed ${limit} bytes (${kind})",
    meaning:
      "Every event waits in the persisted outbox until the server acknowledges it, and the outbox is bounded by `--max-outbox-bytes`. The last `--p0-reserve-bytes` of it are kept for priority-0 events (lifecycle and the run's terminal) so that the run can always end. An event did not fit: the server has not acknowledged events for a long time. The event is not written, the runner stops the run, and the durable state keeps what it had. `details.kind` is `normal` or `reserve`.",
    when: "The server stopped acknowledging (a commit that keeps failing, a server that is down) while the harness kept producing output.",
    solutions: [
      "Find out why the server does not acknowledge (its logs, its database).",
      "Raise `--max-outbox-bytes` if the harness legitimately produces bursts larger than the bound.",
    ],
    prevention:
      "Size `--max-outbox-bytes` for the largest burst the harness produces while the server is slow.",
  },
  ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED: {
    family: "runner",
    title: "The run asks for a provider this runner cannot execute",
    message: "provider kind ${kind} is not executable through the local runnerd boundary",
    meaning:
      "`run.prepare` names the provider that serves the run in `payload.provider.kind`. This runner executes `codex` and `opencode` (both through the Codex app-server facade); `acpx`, `claude_managed` and `aws_agentcore` are upstream kinds it does not execute yet, and anything else is unknown. The command fails (`command_execution_failed`) with upstream's words and nothing is started: `run.prepare requires a supported provider kind before runner execution` when the kind is missing or not a string, upstream's refusal of a descriptor key the kind does not take (`run.prepare ACPX provider is invalid: unknown field …`, `Claude Managed provider descriptor is invalid: …`, `AWS AgentCore provider descriptor is invalid: …`), else the message above.",
    when: "The server was configured for an ACPX or managed provider, or sent a kind from a newer release.",
    solutions: [
      "Run the agent with the `codex` or `opencode` provider, or use upstream's runner for the other kinds.",
    ],
    prevention: "Check the agent's runtime provider before assigning it to a native runner.",
  },
  ERR_RUNNER_PROVIDER_CONFIG_INVALID: {
    family: "runner",
    title: "The provider configuration of run.prepare was refused",
    message: "${reason}",
    meaning:
      "`run.prepare.payload.provider` is checked before anything starts, as upstream's runner checks it and with its words (the command fails, `command_execution_failed`): a value of the wrong type or a missing `provider`, `driver`, `providerVersion`, `command` or `cwd` (`run.prepare provider is invalid: …`), then the provider and driver pairing (`codex`/`codex_app_server`, `opencode`/`opencode_server`), `providerVersion` (1 to 120 bytes; OpenCode's the qualified release), the command, `cwd` (an existing absolute directory), the arguments (at most 64 of at most 4096 bytes, no NUL), the model (1 to 240 bytes; OpenCode's `provider/model`), `providerSessionId`, the instructions (at most 1 MiB) and `approvalPolicy` (`never`). The authorized tool set is refused as upstream's refuses it (`run.prepare tool contract rejected: …`: its schema, a `catalogDigest` that is not a canonical sha256 or does not match the operations, too many operations, a name twice). This runner's own checks (a tool's name form, version, description and schemas, an OpenCode run against the runner's launch profile `--opencode-proxy-*`) read `invalid provider configuration: …`.",
    when: "The server and the runner come from different releases, or a hand-written `run.prepare` is incomplete.",
    solutions: ["Fix the field the message names, or let the Paperclip server build the command."],
    prevention: "Drive the runner through the server's own transport.",
  },
  ERR_RUNNER_PROVIDER_START_FAILED: {
    family: "runner",
    title: "The provider process could not be started",
    message: "the provider process could not start: ${reason}",
    meaning:
      "`session.open` starts the provider (`command args` in `cwd`, its own process group, an allowlisted environment) and opens its thread over the app-server JSON-RPC. The program does not exist, is not executable, or exited before it answered `initialize` or `thread/start`. The runner emits `harness.diagnostic` and `session.failed`, answers the command `failed`, and leaves no process behind.",
    when: "The Codex CLI is not installed where the command says, its home is not writable, or it crashed at start.",
    solutions: [
      "Run the provider command by hand (`codex app-server`) to see why it stops.",
      "Check `details.reason` and the diagnostics directory.",
    ],
    prevention: "Install the provider in the toolchain the server points at.",
  },
  ERR_RUNNER_PROVIDER_PROTOCOL: {
    family: "runner",
    title: "The provider broke the app-server protocol",
    message: "provider protocol violation: ${reason}",
    meaning:
      "Every line from the provider must be one UTF-8 JSON-RPC message of at most 4 MiB nested at most 127 levels deep, answers must name a request the runner sent, notifications must name the runner's thread and active turn, and at most 1024 messages (16 MiB) may wait to be processed. The provider wrote something else (not JSON, invalid UTF-8, an oversized or too deeply nested frame, an answer to nothing, a foreign thread or turn, a flood). The runner stops the provider's process group, emits `harness.diagnostic`, `session.failed` and, when a turn was active, `turn.failed` with its terminal events; the thread is kept for reconciliation.",
    when: "The provider binary is not the Codex app-server the runner expects, or it is faulty.",
    solutions: ["Check the provider version against the one the server qualifies.", "Read `details.reason`."],
    prevention: "Use the provider release the server qualifies.",
  },
  ERR_RUNNER_PROVIDER_NOT_BOUND: {
    family: "runner",
    title: "The runner read the provider session before run.prepare bound one",
    message: "run.prepare has not bound a provider",
    meaning:
      "An invariant of the Codex executor in `paperclip-runnerd`: every command but `run.prepare` is answered from the provider session a `run.prepare` bound (commands after a refused first `run.prepare` are answered without it). The executor read that session while none was bound, so a code path skipped that check. The command fails with this error; nothing is sent to the provider.",
    when: "A defect in the runner, not in the server's commands or the provider.",
    solutions: [
      "Report it with the runner's diagnostics and the commands the server sent (their order and types).",
      "Start the run again: a new `run.prepare` binds the provider.",
    ],
    prevention: "None on the caller's side: the runner must not read an unbound session.",
  },
  ERR_RUNNER_PROVIDER_REQUEST_FAILED: {
    family: "runner",
    title: "The provider refused a request of the runner",
    message: "the provider answered ${method} with an error: ${providerMessage}",
    meaning:
      "The provider answered one of the runner's JSON-RPC requests (`initialize`, `thread/start`, `thread/resume`, `turn/start`, …) with a JSON-RPC error instead of a result. `details.method` names the request, `details.rpcCode` the provider's error code, and `details.providerMessage` its message, redacted and cut to 1000 characters (a provider's text may carry credentials). When it happens while the session opens, the runner stops the provider's process group and emits `harness.diagnostic` and `session.failed`; the command fails.",
    when: "The provider is not logged in, its configuration is refused, or the thread it is asked to resume is gone.",
    solutions: [
      "Read `details.providerMessage` and `details.rpcCode`.",
      "Run the provider by hand (`codex app-server`) with the same home to see the refusal.",
    ],
    prevention: "Keep the provider's login and configuration valid for the home the server points at.",
  },
  ERR_RUNNER_PROVIDER_TIMEOUT: {
    family: "runner",
    title: "The provider did not answer in time",
    message: "the provider did not answer ${method} within ${timeoutMs} ms",
    meaning:
      "Each JSON-RPC request to the provider is bounded (30 s, or `PAPERCLIP_RUNNER_PROVIDER_REQUEST_TIMEOUT_MS`). The provider did not answer: the runner stops its process group and fails the command and the session as for a provider exit.",
    when: "The provider hangs, or waits on something that never comes (a model endpoint that does not answer).",
    solutions: [
      "Check that the provider's model endpoint answers.",
      "Run the provider by hand to see where it waits.",
    ],
    prevention: "Keep the provider's network path healthy.",
  },
  ERR_RUNNER_PROVIDER_STATE_CONFLICT: {
    family: "runner",
    title: "The state directory holds more than one provider's state",
    message: "runner state contains conflicting provider authorities",
    meaning:
      "On restart the runner picks its provider executor from the one provider state file in `--state-dir` (`codex-provider-state.json`, `acpx-provider-state.json`, `managed-provider-state.json`). More than one is present, so it cannot know which provider owns the run, and it stops without touching any of them.",
    when: "Two runners of different providers were pointed at one state directory.",
    solutions: [
      "Give every run its own state directory; remove the stray file only if you know which run it belongs to.",
    ],
    prevention: "Let the server choose the state directory.",
  },
} as const satisfies RegistryTable<"RUNNER", "runner">;
