import type { RegistryTable } from "./entry.js";

/** Codes thrown by `@paperclipai/adapter-utils` (the local-process sandbox). Owned by the sandbox team. */
export const sandboxRegistry = {
  ERR_SANDBOX_PROXY_SOCKET_DIR: {
    family: "sandbox",
    title: "Unable to create a Linux-safe Paperclip sandbox proxy socket directory",
    message: "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    meaning:
      "The network allowlist proxy listens on a Unix socket `<dir>/proxy.sock`. Linux limits a socket path to 107 bytes (`sun_path` is 108 bytes with the NUL), so the sandbox needs a private directory with a short path. Every candidate base directory (`/tmp`, then `os.tmpdir()`, then `$XDG_RUNTIME_DIR`) failed: `mkdtemp` threw, or the socket path would have been longer than 107 bytes. `cause` holds the last failure and `details.attempts` lists every candidate with its own reason (error code, or the socket path's byte length). The same error, with `details.privateSocketRoot: true`, means the proxy directory was made but no private socket root was usable: the real socket lives in `/dev/shm/paperclip-sandbox-sockets-<uid>`, else `/tmp/…`, else `/run/user/<uid>/…` (places every sandbox hides, so no other run can reach it), and each of them failed. A root whose base's real path lies outside `/dev`, `/tmp` and `/run` (`/dev/shm` a link to `/var/shm`) is skipped, never tried: `details.skippedRoots` names each with its base's real path and the reason.",
    when: "`/tmp` is read-only, full (ENOSPC, inodes included), missing or not writable by the runner user (EACCES), and `TMPDIR` points to a deep path (CI workspaces, nested containers) whose `paperclip-network-sandbox-XXXXXX/proxy.sock` exceeds 107 bytes, or is unwritable too. Common in hardened containers with a read-only root, CI runners with a long `TMPDIR`, and sandboxes without write access to any temp directory.",
    solutions: [
      "Read `error.details.attempts`: each candidate shows why it failed (EACCES, EROFS, ENOSPC, ENOENT, or `socketPathBytes` over 107). Fix the first candidate you control.",
      "Point `TMPDIR` at a short, writable directory owned by the runner user, for example `mkdir -m 700 /run/paperclip && export TMPDIR=/run/paperclip`.",
      "Give `/tmp` its standard mode (`chmod 1777 /tmp`) or mount a writable tmpfs there.",
      "Free space and inodes on the filesystem behind `/tmp` (`df -h /tmp; df -i /tmp`).",
      "Run `paperclip-sandbox doctor`: it checks every candidate and prints the fix for each failing one.",
      "With `details.privateSocketRoot: true`: make `/dev/shm` a writable tmpfs (Docker provides one; `--tmpfs /dev/shm` otherwise), or `/tmp` writable, or create `/run/user/<uid>` (mode 0700, owned by the runner user). A root directory another user created first is refused. A root in `details.skippedRoots` serves again once its base is a real directory there (`/dev/shm` its own tmpfs rather than a link to `/var/shm`).",
    ],
    prevention:
      "Run `paperclip-sandbox doctor` when provisioning a host or image. Keep `TMPDIR` short (well under 60 bytes), and keep `/tmp` writable for the runner user. The sandbox sweeps proxy directories of dead processes on start, so stale directories do not fill `/tmp`.",
    example: `import { PaperclipError } from "@paperclipai/errors";

try {
  return await buildLocalProcessSandboxSpawnTarget(input);
} catch (error) {
  if (PaperclipError.is(error, "ERR_SANDBOX_PROXY_SOCKET_DIR")) {
    for (const attempt of error.details.attempts as { baseDir: string; reason: string }[]) {
      console.error(\`\${attempt.baseDir}: \${attempt.reason}\`);
    }
  }
  throw error;
}`,
  },
  ERR_SANDBOX_RUN_DIR: {
    family: "sandbox",
    title: "Unable to create the per-run Paperclip sandbox directory",
    message:
      "Unable to create the per-run Paperclip sandbox directory (private /tmp and /run masks of the network-only scope).",
    meaning:
      'The network-only `networkScope: "deny"` scope (no filesystem scope) keeps the host tree visible but hides host `/tmp`, `/run`, `/var/run` and `$XDG_RUNTIME_DIR` behind private empty directories bound over them. Those directories live in one per-run directory `<base>/paperclip-network-sandbox-XXXXXX` (mode 0700), and it could be made nowhere: not in a private socket root whose mount allows exec (`/dev/shm`, `/tmp`, `/run/user/<uid>`, each `/paperclip-sandbox-sockets-<uid>`), and `mkdtemp` failed on every candidate base directory (`/tmp`, then `os.tmpdir()`, then `$XDG_RUNTIME_DIR`, or `proxySocketDirCandidates` alone when given). No proxy and no socket are involved, so path length is not a reason here; `cause` holds the last failure and `details.attempts` lists every candidate with its own error code.',
    when: "`/tmp` is read-only, full (ENOSPC, inodes included), missing or not writable by the runner user (EACCES), and `TMPDIR` (and `$XDG_RUNTIME_DIR`, when set) is unwritable or missing too. Common in hardened containers with a read-only root filesystem and no writable temp directory.",
    solutions: [
      "Read `error.details.attempts`: each candidate shows why it failed (EACCES, EROFS, ENOSPC, ENOENT). Fix the first candidate you control.",
      "Point `TMPDIR` at a writable directory owned by the runner user (any length works for this scope), or pass `proxySocketDirCandidates`.",
      "Give `/tmp` its standard mode (`chmod 1777 /tmp`) or mount a writable tmpfs there.",
      "Free space and inodes on the filesystem behind `/tmp` (`df -h /tmp; df -i /tmp`).",
    ],
    prevention:
      "Run `paperclip-sandbox doctor` when provisioning a host or image: a candidate it reports usable for the proxy socket is usable here too. Keep `/tmp` writable for the runner user; directories of dead processes are swept on start.",
    example: `import { PaperclipError } from "@paperclipai/errors";

try {
  return await buildLocalProcessSandboxSpawnTarget({ ...input, options: { ...options, networkScope: "deny" } });
} catch (error) {
  if (PaperclipError.is(error, "ERR_SANDBOX_RUN_DIR")) {
    for (const attempt of error.details.attempts as { baseDir: string; code: string }[]) {
      console.error(\`\${attempt.baseDir}: \${attempt.code}\`);
    }
  }
  throw error;
}`,
  },
  ERR_SANDBOX_PATH_EXPOSES_SOCKET_ROOT: {
    family: "sandbox",
    title: "A sandbox path resolves through a symlink to a private socket root",
    message:
      'Sandbox path "${path}" resolves through a symlink to "${realPath}", which would show the private socket root "${socketRoot}".',
    meaning:
      "bwrap binds the real path of every bind source. A requested path (extra or managed path, workspace, cwd, path alias target, the executable's directory) is a symlink, or lies under one, whose real path is an ancestor of a private socket root (`/`, `/dev`, `/dev/shm`, `/tmp`, `/run`, `/run/user/<uid>`) or lies inside one. Binding it would show every other run's private proxy directory to this sandbox, so the build refuses it. `/var/run`, which links to `/run`, is not refused: it is `/run` named, shown as the host's with the roots masked; a link of any other name to such a place is (an earlier run could have planted it). `details` holds `path`, `realPath` and `socketRoot`; the path names are not secrets.",
    when: "A workspace, extra path or cwd was replaced by a link to `/tmp`, `/dev/shm`, `/run/user/<uid>` or `/`, for example by an earlier network-only run (that scope has the host tree writable), or a tool's directory is a link into `/tmp`.",
    solutions: [
      "Inspect `details.path` with `readlink -f`: if the link is not yours, remove it and restore the directory, and treat the host as touched by a sandbox.",
      "Point the option at a real directory outside `/tmp`, `/dev/shm` and `/run/user/<uid>` (or at a subdirectory of `/tmp`, which shows no root).",
      "Name the real path itself when you really mean to share `/tmp`: a path that is not a link is masked instead of refused.",
    ],
    prevention:
      "Keep workspaces and tool directories in places no sandbox can rewrite; run untrusted programs in the workspace scope rather than the network-only one, which leaves the host tree writable.",
    example: `buildLocalProcessSandboxSpawnTarget({ executable: "/bin/true", args: [], cwd: "/home/u/ws",
  options: { workspaceDir: "/home/u/ws", filesystemScope: "workspace" } });
// /home/u/ws -> /tmp
// SandboxError [ERR_SANDBOX_PATH_EXPOSES_SOCKET_ROOT]: Sandbox path "/home/u/ws" resolves through a symlink to "/tmp", which would show the private socket root "/tmp/paperclip-sandbox-sockets-1000".`,
  },
  ERR_SANDBOX_RESOLVER_LINK_WRITABLE: {
    family: "sandbox",
    title: "A writable sandbox path holds the link to the host's resolver file",
    message:
      'Sandbox path "${path}" is asked for writable and holds "${link}", a link to the resolver file the host\'s proxy reads: the program could point it at a file of its own for every later run. Ask for "${path}" read-only and for the directories in it the program writes.',
    meaning:
      "The host's allowlist proxy reads `/etc/hosts` and `/etc/resolv.conf` (following a link to its target) each time a run's proxy starts. Every scope shows those files read-only, also under a writable path the caller asked for, by binding each read-only again over it, and makes each directory between that path and the file a mount point of its own, with the path's access, so it cannot be renamed away with the file in it. A link cannot carry a mount, though: where `/etc/resolv.conf` is a link (systemd-resolved, resolvconf, NetworkManager) and a writable bind shows its directory or one above it (an `rw` extra or managed path, workspace or cwd that is `/etc` or above it), or the directory of any link its target passes through (Debian's resolvconf: `/etc/resolvconf/run -> /run/resolvconf`), a root runner's program could replace the link with one to a file of its own (`ln -sfn`), or rename a directory above it, and every later run's proxy would send allowed names to name servers it chose. The build refuses such a request instead, in every scope and only for a root runner: another runner's program writes none of root's files or directories. `details` holds `path` (the bind source) and `link`.",
    when: "A root runner (uid 0) asked for `/etc`, `/etc/resolvconf` or `/` writable (an `rw` extra path, a workspace or cwd there) on a host whose `/etc/resolv.conf` is a symlink.",
    solutions: [
      "Ask for `/etc` read-only and for the directories inside it the program must write (`/etc/app`) writable: mounts are ordered parents first.",
      "Run the program with a copy of the configuration it edits in its workspace instead of the host's `/etc`.",
    ],
    prevention: "Never give a sandboxed program the host's `/etc` to write.",
    example: `buildLocalProcessSandboxSpawnTarget({ executable: "/bin/true", args: [], cwd: "/home/u/ws",
  options: { workspaceDir: "/home/u/ws", networkScope: "deny", extraPaths: [{ path: "/etc", access: "rw" }] } });
// /etc/resolv.conf -> ../run/systemd/resolve/stub-resolv.conf
// SandboxError [ERR_SANDBOX_RESOLVER_LINK_WRITABLE]: Sandbox path "/etc" is asked for writable and holds "/etc/resolv.conf", a link to the resolver file the host's proxy reads: the program could point it at a file of its own for every later run. Ask for "/etc" read-only and for the directories in it the program writes.`,
  },
  ERR_SANDBOX_PATH_LINKS_OUT_OF_WORKSPACE: {
    family: "sandbox",
    title: "A sandbox path inside the workspace is a symlink out of it",
    message:
      'Sandbox path "${path}" lies in workspace "${workspaceDir}" but resolves through a symlink to "${realPath}", outside it.',
    meaning:
      "bwrap binds the real path of every bind source. A requested path inside the workspace (extra or managed path, network-only cwd; spelt below the workspace as named or below its real path) is a symlink, or lies under one, whose real path is outside the workspace's real path. A program of an earlier run could write the workspace, so the link is its choice. The workspace scope refuses every such link: it cannot bind onto a link that dangles inside the sandbox. The network-only scope shows the host tree, so it refuses only a link whose real path lies under a path it hides (`/tmp`, `/run`, `/var/run`, `$XDG_RUNTIME_DIR`, the host's `/dev/shm`, a private socket root): bound back there, it would show host sockets (Docker, ssh-agent, D-Bus); a link to any other host directory works. `details` holds `path`, `realPath` and `workspaceDir`.",
    when: "An extra or managed path such as `<workspace>/.cache`, or the cwd of a network-only run, was replaced by a link out of the workspace (`-> /run/user/1000`, `-> /tmp/ssh-XXXX`, `-> /dev/shm/<dir>`; in the workspace scope also `-> ~/code/app`), for example by a program that ran in that workspace before.",
    solutions: [
      "Inspect `details.path` with `readlink -f`: if the link is not yours, remove it and restore the directory, and treat the workspace as touched by a sandbox.",
      "Name the real path itself (`details.realPath`) when you mean to share it: a path outside the workspace is bound as requested. In the workspace scope a writable (`rw`) path outside the workspace must also lie under one of `outboundRestorePaths`, or the run is refused with `ERR_SANDBOX_WRITABLE_PATH_UNMAPPED`; share it read-only or add that mapping.",
    ],
    prevention:
      "Create the directories you name inside the workspace before each run, or name host directories by their own paths rather than through links in the workspace.",
    example: `buildLocalProcessSandboxSpawnTarget({ executable: "/bin/true", args: [], cwd: "/home/u/ws",
  options: { workspaceDir: "/home/u/ws", networkScope: "deny", extraPaths: [{ path: "/home/u/ws/.cache", access: "ro" }] } });
// /home/u/ws/.cache -> /run/user/1000
// SandboxError [ERR_SANDBOX_PATH_LINKS_OUT_OF_WORKSPACE]: Sandbox path "/home/u/ws/.cache" lies in workspace "/home/u/ws" but resolves through a symlink to "/run/user/1000", outside it.`,
  },
  ERR_SANDBOX_WORKSPACE_HIDDEN: {
    family: "sandbox",
    title: "The workspace is a place the sandbox replaces with its own",
    message:
      'Sandbox workspaceDir "${workspaceDir}" ${relation} "${place}", which the sandbox replaces with ${cause}: the program would not see the workspace there and its writes would be lost. Choose a workspace that is neither on, in nor above "${place}" (a directory of its own, such as /tmp/<name>, works).',
    meaning:
      "The workspace (as named, or its real path) is on, in or above a directory every sandbox replaces and cannot show again without undoing what hides the host's: its own `/proc` (the host's processes), its own `/dev` (the host's devices; `/dev/shm` and below are shown, with the private socket root hidden), `/sys` (read-only in the network-only scope, absent in the workspace scope, which bound the host's writable: the host's kernel settings), a private socket root (every run's proxy socket), or, in the network-only scope, a directory it makes private (`/tmp`, `/run`, `$XDG_RUNTIME_DIR`) that lies below the workspace. Before, the program saw the sandbox's own directory there and what it wrote was silently lost. A workspace that is exactly `/tmp`, `/dev/shm`, `/run` (`/var/run`, which links there) or `$XDG_RUNTIME_DIR` is not refused: it is the host's, with the private socket roots in it hidden. `details` holds `workspaceDir`, its `realPath`, `place` and `cause`.",
    when: "`workspaceDir` is `/`, `/proc`, `/dev`, `/sys` or a directory in them (the CLI run from `/`, a workspace computed from an empty variable), a directory inside `/tmp/paperclip-sandbox-sockets-<uid>` or another private socket root, or, in the network-only scope, a directory that holds `$XDG_RUNTIME_DIR`.",
    solutions: [
      "Point `workspaceDir` at the project directory itself, or at a directory made for the run (`/tmp/<name>` or `/dev/shm/<name>` work; so do `/tmp` and `/dev/shm` themselves).",
      "In the network-only scope the host tree is shown anyway: a workspace is only where the program writes; name the directory it writes to.",
    ],
    prevention:
      "Compute the workspace from a known project path, never from the process's cwd or a variable that may be empty.",
    example: `buildLocalProcessSandboxSpawnTarget({ executable: "/bin/true", args: [], cwd: "/",
  options: { workspaceDir: "/", networkScope: "deny" } });
// SandboxError [ERR_SANDBOX_WORKSPACE_HIDDEN]: Sandbox workspaceDir "/" holds "/proc", which the sandbox replaces with its own /proc: the program would not see the workspace there and its writes would be lost. Choose a workspace that is neither on, in nor above "/proc" (a directory of its own, such as /tmp/<name>, works).`,
  },
  ERR_SANDBOX_PATH_IN_SOCKET_ROOT: {
    family: "sandbox",
    title: "A cwd, extra or managed path lies in a private socket root",
    message:
      'Sandbox ${option} path "${path}" lies in the private socket root "${socketRoot}", which every sandbox hides behind an empty directory: the program would not see it and its writes would be lost.',
    meaning:
      "Every sandbox puts an empty directory over each private socket root of the user (the directories holding every run's proxy socket), in each spelling (`/dev/shm/...` and, where `/dev/shm` links to `/run/shm`, `/run/shm/...`), after the binds. A cwd, extra or managed path on or in one (as named or by its real path) would be bound and then hidden: the program saw an empty directory there, and what it wrote was lost without an error. The workspace is refused the same way with `ERR_SANDBOX_WORKSPACE_HIDDEN`. `details` holds `option` (`cwd`, `extraPaths` or `managedPaths`), `path`, its `realPath` and `socketRoot`.",
    when: "A cwd or an extra or managed path was computed inside `/dev/shm/paperclip-sandbox-sockets-<uid>`, `/tmp/paperclip-sandbox-sockets-<uid>` or `/run/user/<uid>/paperclip-sandbox-sockets-<uid>` (for example from a run's proxy directory), or is a link into one.",
    solutions: [
      "Point the option at a directory of its own outside the private socket roots (`/tmp/<name>` works).",
      'A run\'s proxy socket is not meant to be shared: to give a program network access, use `networkScope: "allowlist"`.',
    ],
    prevention: "Never derive sandbox paths from a run's proxy or socket directory.",
    example: `buildLocalProcessSandboxSpawnTarget({ executable: "/bin/true", args: [], cwd: "/tmp/paperclip-sandbox-sockets-1000/x",
  options: { workspaceDir: "/home/u/ws", networkScope: "deny" } });
// SandboxError [ERR_SANDBOX_PATH_IN_SOCKET_ROOT]: Sandbox cwd path "/tmp/paperclip-sandbox-sockets-1000/x" lies in the private socket root "/tmp/paperclip-sandbox-sockets-1000", which every sandbox hides behind an empty directory: the program would not see it and its writes would be lost.`,
  },
  ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_TYPE: {
    family: "sandbox",
    title: "A networkAllowlist entry is not a string",
    message: "networkAllowlist[${index}] must be a string.",
    meaning:
      "`networkAllowlist` is an array of strings, each a hostname, `hostname:port`, `hostname:*` or an origin URL. The entry at `index` is a number, object, `null` or another non-string value, so no network rule can be built from it.",
    when: 'The allowlist comes from JSON or YAML configuration where a port was written as a number (`["api.example.com", 443]`), an entry was written as an object (`{ host, port }`), or a templating step produced `null` for an unset variable.',
    solutions: [
      'Write the entry as a string: `"api.example.com"`, `"api.example.com:8443"`, `"api.example.com:*"` or `"https://api.example.com"`.',
      "Remove `null` entries produced by unset variables before passing the list to the sandbox.",
      "Check `details.index` (the position in the array) to find the entry.",
    ],
    prevention:
      "Validate adapter configuration with `parseLocalProcessNetworkAllowlist(value)` when the configuration is loaded, not when the first run starts.",
    example: `parseLocalProcessNetworkAllowlist(["api.openai.com", 443]);
// SandboxError [ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_TYPE]: networkAllowlist[1] must be a string.`,
  },
  ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_EMPTY: {
    family: "sandbox",
    title: "A networkAllowlist entry is empty",
    message: "networkAllowlist[${index}] must not be empty.",
    meaning:
      "The entry at `index` is an empty string or only whitespace. An empty rule cannot name a host, and silently dropping it could hide a configuration mistake, so parsing stops.",
    when: 'A comma-separated environment variable was split into a list with a trailing comma (`"a.example,"`), or a template substituted an unset variable into the list.',
    solutions: [
      "Remove the empty entry, or filter empty strings after splitting a comma-separated value.",
      "Set the variable the template expected, then rebuild the list.",
    ],
    prevention:
      'Trim and drop empty items where the list is assembled (`value.split(",").map((s) => s.trim()).filter(Boolean)`).',
  },
  ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_FORMAT: {
    family: "sandbox",
    title: "A networkAllowlist entry is not a hostname, hostname:port or origin URL",
    message: "networkAllowlist[${index}] must be a hostname, hostname:port, or origin URL.",
    meaning:
      "Each entry names one host and optionally one port: `hostname` (ports 80 and 443), `hostname:port` (that port only, 1-65535), `hostname:*` (any port), `[IPv6]`, `[IPv6]:port`, or an origin URL such as `https://api.example.com:8443`. The entry at `index` has userinfo (`user@`), a path, a query or a fragment, an invalid port, or characters a hostname cannot contain.",
    when: "A full endpoint URL was pasted (`https://api.example.com/v1/chat`), credentials were embedded (`https://token@host`), a port was out of range (`host:70000`, `host:0`) or not decimal, or an IPv6 address with a port was written without brackets (`::1:8080`).",
    solutions: [
      "Keep only the origin: `https://api.example.com/v1/chat` becomes `https://api.example.com` or `api.example.com`.",
      "Remove credentials from the entry; pass them to the program through its own configuration instead.",
      "Use a port between 1 and 65535, or `hostname:*` to allow every port of that host.",
      "Bracket IPv6 addresses: `[2001:db8::1]:8443`.",
    ],
    prevention:
      "Treat the allowlist as a list of hosts, not URLs. Validate it with `parseLocalProcessNetworkAllowlist(value)` when configuration is loaded.",
    example: `parseLocalProcessNetworkAllowlist(["https://api.example.com/v1"]);
// SandboxError [ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_FORMAT]: networkAllowlist[0] must be a hostname, hostname:port, or origin URL.`,
  },
  ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_WILDCARD: {
    family: "sandbox",
    title: "A networkAllowlist entry uses a hostname wildcard",
    message: "networkAllowlist[${index}] must use an exact hostname; wildcards are not supported.",
    meaning:
      "Rules match an exact hostname (case-insensitive, trailing dot folded, IDNs compared in ASCII). A `*` in the hostname (`*`, `*.example.com`, `api.*.example.com`) would let the sandboxed program reach hosts nobody reviewed, so it is refused. A `*` in the port position (`api.example.com:*`) is allowed and means every port of that exact host.",
    when: "An allowlist copied from a firewall or browser policy that supports suffix wildcards.",
    solutions: [
      "List every hostname the program needs, for example `api.example.com` and `uploads.example.com` instead of `*.example.com`.",
      "Run the program once with `paperclip-sandbox --verbose` to see every host it tries to reach, then allow exactly those.",
    ],
    prevention: "Review allowlists as exact host lists; prefer a few specific hosts over broad patterns.",
  },
  ERR_SANDBOX_NETWORK_ALLOWLIST_EMPTY: {
    family: "sandbox",
    title: "The allowlist network scope has no usable rule",
    message:
      'networkScope="allowlist" requires at least one valid networkAllowlist hostname or HTTP(S) networkTrustedUrl.',
    meaning:
      'With `networkScope: "allowlist"` the sandbox has no network except through the allowlist proxy. `networkAllowlist` is empty and no `networkTrustedUrls` entry is an `http:` or `https:` URL, so the proxy would deny everything. Upstream raises this instead of starting a proxy that can never allow a connection.',
    when: "`networkAllowlist` was left empty or unset, and the trusted URLs are missing, not URLs, or use another scheme (`ws:`, `file:`).",
    solutions: [
      'Add the hosts the program needs to `networkAllowlist`, for example `["api.anthropic.com"]`.',
      "Pass the Paperclip control-plane URL as an `http:` or `https:` entry of `networkTrustedUrls`.",
      'If the program needs no network at all, use `networkScope: "deny"` instead.',
    ],
    prevention:
      "Build the allowlist from the adapter's declared endpoints and check it is non-empty before starting a run.",
  },
  ERR_SANDBOX_PROXY_LIMIT_INVALID: {
    family: "sandbox",
    title: "A sandbox network proxy limit is not a positive integer",
    message: "Sandbox network proxy limit ${name} must be a positive integer; got ${value}.",
    meaning:
      "`limits.maxConnections`, `limits.maxHeaderBytes`, `limits.tunnelIdleMs` and `limits.headersTimeoutMs` of `startSandboxNetworkProxy` must be positive safe integers. A zero, negative, fractional or non-numeric value would disable a protection or make the proxy refuse everything, so it is rejected before the proxy starts.",
    when: 'A limit was read from an environment variable without converting it to a number, or set to 0 meaning "unlimited".',
    solutions: [
      "Pass a positive integer, for example `{ maxConnections: 512, tunnelIdleMs: 600000 }`.",
      "Omit a limit to use its default (1024 connections, 16 KiB of headers, 15 minutes idle tunnel, 30 s to send headers).",
      "Convert configuration strings with `Number(value)` and check `Number.isSafeInteger` first.",
    ],
    prevention:
      'Validate proxy limits where configuration is parsed; there is no "unlimited" value by design.',
  },
  ERR_SANDBOX_PROXY_LISTEN: {
    family: "sandbox",
    title: "The sandbox network proxy could not listen on its Unix socket",
    message: "Paperclip sandbox network proxy could not listen on ${socketPath}.",
    meaning:
      "The allowlist proxy serves the sandbox through a Unix socket on the host. Binding the socket failed: the path already exists (EADDRINUSE), its directory is not writable (EACCES, EROFS) or missing (Node reports a missing directory of a Unix socket as EACCES too). `cause` is the system error and `details.code` its code.",
    when: "Two proxies were started with the same socket path, a previous run left a socket file behind, or the proxy directory was removed before the proxy started.",
    solutions: [
      "Let `buildLocalProcessSandboxSpawnTarget` create the proxy directory (`createNetworkProxyTempDir`): each run gets a fresh private directory.",
      "If you pass `socketPath` yourself, point it at a new file inside an existing directory you own, and remove stale sockets first.",
      "Check `details.code`: EADDRINUSE means the path exists; EACCES a missing directory or a permission problem (check both); EROFS a read-only filesystem.",
    ],
    prevention: "Use one socket path per proxy and call `close()`, which removes the socket file.",
  },
  ERR_SANDBOX_SOCKET_PATH_TOO_LONG: {
    family: "sandbox",
    title: "Sandbox proxy socket path exceeds the Linux limit",
    message:
      "Paperclip sandbox proxy socket path is ${bytes} bytes, exceeding the Linux limit of 107: ${path}",
    meaning:
      "A Unix socket path on Linux may be at most 107 bytes (`sun_path` is 108 bytes including the terminating NUL). A longer path is silently truncated by `bind()`, so the proxy would listen somewhere else than the bridge connects to; `assertUnixSocketPathLength` refuses it up front. Bytes are counted in UTF-8, so non-ASCII directory names count more than once.",
    when: "`assertUnixSocketPathLength` is called with a long path, or `createNetworkProxyTempDir` tries a base directory (usually a deep `TMPDIR`) whose `paperclip-network-sandbox-XXXXXX/proxy.sock` is longer than 107 bytes; there it is recorded in `details.attempts` and becomes the `cause` of `ERR_SANDBOX_PROXY_SOCKET_DIR` when no other candidate works.",
    solutions: [
      "Use a shorter base directory: the socket path is `<base>/paperclip-network-sandbox-XXXXXX/proxy.sock`, so the base must stay under about 70 bytes.",
      "Keep `/tmp` writable: it is always tried first and is short enough.",
      "Set `TMPDIR` (or `proxySocketDirCandidates`) to a short directory such as `/run/paperclip`.",
    ],
    prevention: "Run `paperclip-sandbox doctor`: it prints the socket path length each candidate would give.",
    example: `import { assertUnixSocketPathLength } from "@paperclipai/adapter-utils/local-process-sandbox";

assertUnixSocketPathLength("/tmp/paperclip-network-sandbox-abc123/proxy.sock"); // fine: 49 bytes`,
  },
  ERR_SANDBOX_UNSUPPORTED_PLATFORM: {
    family: "sandbox",
    title: "Local process sandbox is Linux-only",
    message: "Local process filesystem and network scopes are currently supported only on Linux.",
    meaning:
      "The sandbox is built on bubblewrap and Linux namespaces (mount, PID, IPC, UTS, network). No other platform has them, so a filesystem or network scope cannot be honoured and the run is refused rather than started unconfined.",
    when: "`buildLocalProcessSandboxSpawnTarget` or `runChildProcess` with a `localProcessSandbox` is called on macOS, Windows or another non-Linux platform.",
    solutions: [
      "Run the adapter on a Linux host, VM or container with bubblewrap installed.",
      "On a non-Linux host, leave `filesystemScope` and `networkScope` unset and confine the agent by other means (a VM, a container).",
    ],
    prevention:
      "Enable sandbox scopes only in configuration that targets Linux runners; check `process.platform` before offering the option in a UI.",
  },
  ERR_SANDBOX_SCOPE_REQUIRED: {
    family: "sandbox",
    title: "Local process sandbox requires a scope",
    message: "Local process sandbox requires a filesystem or network scope.",
    meaning:
      "A sandbox was requested but neither `filesystemScope` nor `networkScope` is set, so there is nothing to confine. The run is refused instead of silently running unconfined.",
    when: '`localProcessSandbox` options are passed with both scopes `null`, `undefined` or `""`.',
    solutions: [
      'Set `filesystemScope: "workspace"` to confine the filesystem, `networkScope: "deny"` or `"allowlist"` to confine the network, or both.',
      "If no confinement is wanted, pass `localProcessSandbox: null` instead of an options object.",
    ],
    prevention:
      "Build the sandbox options from one place that always sets at least one scope when a sandbox is enabled.",
  },
  ERR_SANDBOX_PATH_NOT_ABSOLUTE: {
    family: "sandbox",
    title: "Sandbox path must be absolute",
    message: "${label} must be an absolute path.",
    meaning:
      "Every path the sandbox binds or checks (workspace, cwd, extra and managed paths, aliases, outbound restore paths) must be absolute: a relative path would be resolved against an unpredictable directory. The label names the offending option, for example `filesystemExtraPaths[2]` or `Sandbox workspaceDir`.",
    when: 'An option holds a relative or empty path, for example `filesystemExtraPaths: ["cache"]` or `workspaceDir: ""`.',
    solutions: [
      "Pass an absolute path for the option named in the message (`path.resolve(...)` it before passing it).",
      "Remove empty entries from path lists.",
    ],
    prevention:
      "Resolve configured paths to absolute ones when loading configuration, and validate them with `parseLocalProcessSandboxExtraPaths`.",
  },
  ERR_SANDBOX_EXTRA_PATH_INVALID: {
    family: "sandbox",
    title: "Invalid filesystemExtraPaths entry",
    message: "filesystemExtraPaths[${index}] must be an absolute path or { path, access } object.",
    meaning:
      "An entry of `filesystemExtraPaths` is neither a string nor a plain object, so it cannot describe a path to bind.",
    when: "`parseLocalProcessSandboxExtraPaths` receives a number, `null`, a boolean or an array as an entry.",
    solutions: [
      'Write the entry as an absolute path string (read-only) or as `{ "path": "/abs/path", "access": "ro" | "rw" }`.',
      "Remove `null` placeholders from the list.",
    ],
    prevention:
      "Validate adapter configuration with `parseLocalProcessSandboxExtraPaths` when it is saved, not when a run starts.",
  },
  ERR_SANDBOX_EXTRA_PATH_ACCESS: {
    family: "sandbox",
    title: "Invalid filesystemExtraPaths access or path",
    message: 'filesystemExtraPaths[${index}] must use access "ro" or "rw" and an absolute path.',
    meaning:
      "An object entry of `filesystemExtraPaths` has an `access` other than `ro`/`rw`, or its `path` is not a string.",
    when: 'An entry such as `{ path: "/opt/x", access: "write" }` or `{ access: "ro" }` is parsed.',
    solutions: [
      'Use `access: "ro"` (the default) or `access: "rw"`.',
      "Give the entry a `path` string holding an absolute path.",
    ],
    prevention: "Offer the two access values as a closed choice in configuration UIs and schemas.",
  },
  ERR_SANDBOX_NETWORK_SCOPE_INVALID: {
    family: "sandbox",
    title: "Invalid networkScope",
    message: 'networkScope must be "deny" or "allowlist".',
    meaning:
      "`networkScope` only knows `deny` (no network at all) and `allowlist` (only listed hosts, through the proxy). Any other value is refused rather than guessed.",
    when: 'Configuration holds a value such as `"public"`, `"none"` or `"allow"` for `networkScope`.',
    solutions: ['Use `"deny"` or `"allowlist"`.', 'Leave it unset (or `""`) for no network confinement.'],
    prevention: "Parse configuration with `parseLocalProcessNetworkScope` when it is saved.",
  },
  ERR_SANDBOX_FILESYSTEM_SCOPE_INVALID: {
    family: "sandbox",
    title: "Invalid filesystemScope",
    message: 'filesystemScope must be "workspace".',
    meaning:
      "`filesystemScope` has one value, `workspace`: a fresh root with only the workspace and system read paths. Any other value is refused.",
    when: 'Configuration holds a misspelt or unknown value such as `"workpace"` or `"home"`.',
    solutions: ['Use `"workspace"`.', 'Leave it unset (or `""`) for no filesystem confinement.'],
    prevention: "Parse configuration with `parseLocalProcessFilesystemScope` when it is saved.",
  },
  ERR_SANDBOX_WORKSPACE_ACCESS_INVALID: {
    family: "sandbox",
    title: "Invalid filesystemWorkspaceAccess",
    message: 'filesystemWorkspaceAccess must be "ro" or "rw".',
    meaning:
      "The workspace is mounted read-write (`rw`, the default) or read-only (`ro`); no other access exists.",
    when: 'A value such as `"readonly"` or `"write"` is given for `filesystemWorkspaceAccess`.',
    solutions: [
      'Use `"ro"` for a read-only workspace (review or analysis runs), `"rw"` otherwise.',
      "Leave it unset for `rw`.",
    ],
    prevention: "Parse configuration with `parseLocalProcessFilesystemWorkspaceAccess` when it is saved.",
  },
  ERR_SANDBOX_CWD_OUTSIDE_WORKSPACE: {
    family: "sandbox",
    title: "Sandbox cwd outside the workspace",
    message: 'Sandbox cwd "${cwd}" must be inside workspaceDir "${workspaceDir}".',
    meaning:
      "Under the workspace scope only the workspace is writable and visible, so the program's working directory must lie inside it; otherwise it would start in a directory that does not exist in the sandbox.",
    when: "`cwd` is a parent or sibling of `workspaceDir`, or the two are given through different symlinks.",
    solutions: [
      "Start the program in the workspace or one of its subdirectories.",
      "Pass `workspaceDir` and `cwd` in the same (resolved) form.",
    ],
    prevention:
      "Derive `cwd` from `workspaceDir` (`path.join(workspaceDir, sub)`) rather than configuring both separately.",
  },
  ERR_SANDBOX_WRITABLE_PATH_UNMAPPED: {
    family: "sandbox",
    title: "Writable sandbox path has no outbound restore mapping",
    message:
      'Writable sandbox path "${path}" is outside synchronized workspace "${workspaceDir}" and has no outbound restore mapping.',
    meaning:
      "A read-write extra path outside the workspace would let the program change host files that are neither synchronized with the workspace nor restored afterwards. Such a path needs an `outboundRestorePaths` entry covering it, or must be read-only.",
    when: '`extraPaths` contains `{ path, access: "rw" }` for a path outside `workspaceDir` and outside every `outboundRestorePaths` entry.',
    solutions: [
      'Make the path read-only (`access: "ro"`) if the program only reads it.',
      "Move the data into the workspace.",
      "Add the path (or a parent) to `outboundRestorePaths` when the adapter restores it after the run.",
    ],
    prevention:
      "Keep writable state inside the workspace; review `rw` extra paths when configuring an adapter.",
  },
  ERR_SANDBOX_ALIAS_OUTSIDE_WORKSPACE: {
    family: "sandbox",
    title: "Sandbox path alias targets outside the workspace",
    message: 'Sandbox path alias "${alias}" must target the synchronized workspace "${workspaceDir}".',
    meaning:
      "A path alias binds a workspace directory at a second, fixed path (for example `/app`). Its target must lie inside the workspace, or the alias would expose host files writable.",
    when: '`pathAliases` holds an entry whose `target` is outside `workspaceDir`, or whose target is spelt inside it but is a link (or lies under one) that resolves outside it: bwrap binds the real path, so such a link, planted by an earlier run in the writable workspace, would bind the host directory it names writable. The message then says so: `Sandbox path alias "${alias}" targets "${target}", which resolves through a symlink to "${realTarget}", outside the synchronized workspace "${workspaceDir}".`, and `details.realTarget` is the resolved path.',
    solutions: [
      "Point the alias at the workspace or a directory inside it.",
      "If `details.realTarget` differs from `details.target` and the link is not yours, remove it and restore the directory, and treat the workspace as touched by a sandbox.",
      "Use a read-only `extraPaths` entry for host data instead.",
    ],
    prevention: "Build alias targets from `workspaceDir` (`path.join(workspaceDir, ...)`).",
  },
  ERR_SANDBOX_ALIAS_PATH_LINKED: {
    family: "sandbox",
    title: "A sandbox path alias lies behind a symlink in a bound directory",
    message:
      'Sandbox path alias "${alias}" lies in "${boundPath}" on the way through the symlink "${link}", which bwrap would follow on the host to create it.',
    meaning:
      "A path alias is made where its `path` names, and bwrap first creates that destination when it is missing (a directory, or an empty file for a file target). When the alias path lies inside a directory the sandbox binds from the host (the workspace, an extra or managed path, an earlier alias), that creation happens in the host directory, and bwrap resolves it while the host's root is still mounted beside the new one (`/oldroot`). A symlink on the way, which a program of an earlier run could leave in the writable workspace (`<workspace>/.tool -> ../../../../oldroot/etc`), would take bwrap, with the runner's full rights, to create that path anywhere on the host (an empty `/etc/nologin` locks every other user out). So every symlink between the bound directory and the alias path is refused. `details` holds `path` (the alias), `boundPath` (the bound directory, as requested) and `link` (the host path of the link).",
    when: "`pathAliases` holds an entry whose `path` lies inside the workspace (or another bound directory), and a component of that path below the bound directory is a symlink on the host, for example one planted by a program that ran in that workspace before.",
    solutions: [
      "Inspect `details.link`: if the link is not yours, remove it, and treat the workspace as touched by a sandbox.",
      "Put the alias outside every bound directory (`/app`, `/home/agent/project`): there it is made in the sandbox's own root.",
    ],
    prevention:
      "Choose alias paths outside the workspace and the extra paths; an alias inside the workspace shows what the workspace already shows.",
    example: `buildLocalProcessSandboxSpawnTarget({ executable: "/bin/true", args: [], cwd: "/home/u/ws",
  options: { workspaceDir: "/home/u/ws", filesystemScope: "workspace",
    pathAliases: [{ path: "/home/u/ws/.tool/cache", target: "/home/u/ws/cache" }] } });
// /home/u/ws/.tool -> ../../../../oldroot/etc
// SandboxError [ERR_SANDBOX_ALIAS_PATH_LINKED]: Sandbox path alias "/home/u/ws/.tool/cache" lies in "/home/u/ws" on the way through the symlink "/home/u/ws/.tool", which bwrap would follow on the host to create it.`,
  },
  ERR_SANDBOX_ALIAS_TARGET_MISSING: {
    family: "sandbox",
    title: "Sandbox path alias target does not exist",
    message: 'Sandbox path alias target "${target}" does not exist.',
    meaning: "The alias would bind a directory that is not there, which bwrap cannot do.",
    when: "The workspace was not synchronized yet, or the alias target is misspelt.",
    solutions: [
      "Create the target directory (or synchronize the workspace) before starting the run.",
      "Fix the target path.",
    ],
    prevention: "Create alias targets as part of workspace preparation.",
  },
  ERR_SANDBOX_COMMAND_NOT_FOUND: {
    family: "sandbox",
    title: "Sandboxed command not found",
    message: 'Command not found in PATH: "${command}"',
    meaning:
      "The sandbox binds the program's directory and package root by absolute path, so the command must resolve on the host first (relative to `cwd` when it has a slash, else on `PATH`).",
    when: "The command is not installed, not executable, or `PATH` in the run's env does not contain its directory.",
    solutions: [
      "Install the command, or pass its absolute path.",
      "Add its directory to `PATH` in the `env` option.",
      "Make the file executable (`chmod +x`).",
    ],
    prevention: "Resolve adapter commands at configuration time and show the resolved path.",
  },
  ERR_SANDBOX_BWRAP_NOT_FOUND: {
    family: "sandbox",
    title: "Bubblewrap not found",
    message:
      'Local process confinement requires Bubblewrap, but "${cmd}" was not found on the host\'s PATH. Install bwrap or configure filesystemSandboxCommand.',
    meaning:
      "Sandboxed runs are started through bubblewrap (`bwrap`). The configured command (default `bwrap`) could not be found or is not executable, so the run is refused rather than started unconfined. bwrap runs on the host, unconfined, so a bare name is looked up on the host's PATH only (the `PATH` of the process that builds the sandbox, absolute entries only), never on the run's `PATH` (the env given to `runChildProcess` or to `buildLocalProcessSandboxSpawnTarget`), which may name the workspace where an earlier run planted a `bwrap`. A builder given `env` throws this instead of returning the bare name for the caller's spawn to look up on that env's `PATH`.",
    when: "bubblewrap is not installed, the `command` option points to a missing file, or the host's `PATH` lacks bwrap's directory (`/usr/bin`) or names it only by a relative entry, even when the run's `PATH` has it; or, for `runChildProcess`, the only bwrap on the host's `PATH` lies in the run's workspace (`npm run` and `npx` put `<dir>/node_modules/.bin` first), which is skipped.",
    solutions: [
      "Install bubblewrap: `apt-get install bubblewrap` (Debian, Ubuntu), `dnf install bubblewrap` (Fedora), `apk add bubblewrap` (Alpine).",
      "Set the `command` option (adapters: `filesystemSandboxCommand`) to the absolute path of bwrap.",
      "Run `paperclip-sandbox doctor` to check bwrap and the kernel features it needs.",
    ],
    prevention:
      "Install bubblewrap in the runner image and run `paperclip-sandbox doctor` in the image build.",
  },
  ERR_SANDBOX_SPAWN_FAILED: {
    family: "sandbox",
    title: "Failed to start the command",
    message:
      'Failed to start command "${command}" in "${cwd}". Verify adapter command, working directory, and PATH (${path}).',
    meaning:
      "The operating system refused to start the process (or bwrap for a sandboxed run): `spawn` emitted an error before the program ran. `cause` holds the system error.",
    when: "The working directory does not exist (ENOENT), the file is not executable (EACCES), or the system is out of processes or memory (EAGAIN, ENOMEM). For other errors the message ends with the system error text instead of the PATH hint.",
    solutions: [
      "Check that the working directory exists.",
      "Check that the command exists and is executable, and that `PATH` is right.",
      "Read `cause.code` for the system error.",
    ],
    prevention:
      "Create the working directory before the run, and resolve commands to absolute paths at configuration time.",
  },
  ERR_SANDBOX_SETUP_FAILED: {
    family: "sandbox",
    title: "Bubblewrap could not set up the sandbox",
    message: "Bubblewrap could not set up the sandbox: ${reason}",
    meaning:
      "bwrap exited before starting the program: its status stream (`--json-status-fd`) reported no program exit. The program never ran, so this is not a program failure. `details.stderr` holds bwrap's own stderr (for example `bwrap: Can't bind mount /oldroot/usr/bin on /newroot/bin`, or `bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted`); `details.apparmorUserns` is true when it looks like a namespace permission problem.",
    when: "Unprivileged user namespaces are disabled or restricted (Ubuntu 24.04's AppArmor `kernel.apparmor_restrict_unprivileged_userns=1`; Debian's `kernel.unprivileged_userns_clone=0`), a container runtime blocks `mount`/`clone` (default Docker seccomp), a bind source vanished between planning and start, or the program does not exist inside the sandbox (`execvp` failed).",
    solutions: [
      "Read `details.stderr`: bwrap names the failing step.",
      "On Ubuntu 24.04, allow bwrap user namespaces with an AppArmor profile for `/usr/bin/bwrap` (`abi <abi/4.0>, profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }`), or set `sysctl kernel.apparmor_restrict_unprivileged_userns=0`.",
      "In Docker, run the runner with `--security-opt seccomp=unconfined --security-opt apparmor=unconfined` (or a profile allowing `clone`/`mount`), or with `--cap-add SYS_ADMIN`.",
      "If `execvp` failed, make sure the program and its interpreter live under a path the sandbox binds (`extraPaths`).",
      "Run `paperclip-sandbox doctor` for a full check of the host.",
    ],
    prevention:
      "Run `paperclip-sandbox doctor` on each new host or image; it starts a real sandbox and reports this error with the fix before any agent run does.",
  },
  ERR_SANDBOX_CLI_USAGE: {
    family: "sandbox",
    title: "Invalid paperclip-sandbox command line",
    message: "${reason}",
    meaning:
      "The `paperclip-sandbox` command line could not be understood: an unknown option, an option without its value, an invalid `--net` value, or no command after `--`.",
    when: "Running `paperclip-sandbox` with a typo in an option, `--net` other than `deny`/`allowlist`, or without a command to run.",
    solutions: [
      "Run `paperclip-sandbox --help` for the usage.",
      "Put the command after `--`: `paperclip-sandbox --net deny -- curl https://example.com`.",
    ],
    prevention: "Script the CLI with the documented options; a usage error exits with status 2.",
  },
  ERR_SANDBOX_BRIDGE_CHOICE_INVALID: {
    family: "sandbox",
    title: "Invalid choice of in-sandbox bridge",
    message: '${source} must be "auto", "native" or "node".',
    meaning:
      "The allowlist scope starts a bridge inside the sandbox that relays the program's proxy connections to the host proxy. Which one is set by the `networkBridge` option or, when that is unset, by the `PAPERCLIP_SANDBOX_BRIDGE` env variable; the value was none of `auto` (the native binary when it runs, else the Node bridge), `native` or `node`. The message names where the value came from (`networkBridge` or `PAPERCLIP_SANDBOX_BRIDGE`); `details.value` holds at most its first 40 characters.",
    when: "A typo in `PAPERCLIP_SANDBOX_BRIDGE` (for example `Native` or `c`), or a `networkBridge` value from an untyped config.",
    solutions: [
      "Use one of `auto`, `native`, `node`, in lowercase, or unset the variable (`auto`).",
      "Run `paperclip-sandbox doctor`: it prints which bridge a run will use and why.",
    ],
    prevention:
      "Leave the choice at `auto` unless you are diagnosing the bridge; it falls back to Node by itself.",
    example: `PAPERCLIP_SANDBOX_BRIDGE=c paperclip-sandbox --net allowlist --allow api.example.com -- curl https://api.example.com
# SandboxError [ERR_SANDBOX_BRIDGE_CHOICE_INVALID]: PAPERCLIP_SANDBOX_BRIDGE must be "auto", "native" or "node".`,
  },
  ERR_SANDBOX_NATIVE_BRIDGE_UNAVAILABLE: {
    family: "sandbox",
    title: "The native sandbox bridge was required but cannot be used",
    message: "The native sandbox bridge was asked for (${source}) but cannot be used: it ${detail}.",
    meaning:
      'The package builds a small native bridge (`dist/native/<platform>-<arch>/paperclip-sandbox-bridge`, from `native/*.c`) that relays the program\'s proxy connections inside the sandbox without starting a second Node process, and takes long tunnels over from the host proxy. `native` was required (by `networkBridge: "native"` or `PAPERCLIP_SANDBOX_BRIDGE=native`), but the binary is missing (binaries ship for linux-x64 and linux-arm64 only, and a source build with `PAPERCLIP_NATIVE_BUILD=skip` makes none) or does not run (`--version` failed: wrong architecture or libc, no execute permission, a `noexec` mount). Under the default `auto` the Node bridge would have been used instead. `details.path` and `details.status` (`missing`, `failed`, `unsupported`) say which.',
    when: "Installing the package on an architecture other than linux-x64, building it from source without `cc`, or from a filesystem mounted `noexec`, with the native bridge forced.",
    solutions: [
      "Unset `PAPERCLIP_SANDBOX_BRIDGE` or use `auto`: the Node bridge takes over, with the same behaviour and a slower start.",
      "Install a C compiler (`apt-get install gcc`) and rebuild the package (`pnpm --filter @paperclipai/adapter-utils build`) to build the binary for this machine.",
      "Run `paperclip-sandbox doctor`: its bridge check shows the binary's path and why it cannot run.",
    ],
    prevention: "Require `native` only where the doctor reports the native bridge; elsewhere leave `auto`.",
    example: `await buildLocalProcessSandboxSpawnTarget({ ...input, options: { ...options, networkBridge: "native" } });
// SandboxError [ERR_SANDBOX_NATIVE_BRIDGE_UNAVAILABLE]: The native sandbox bridge was asked for (networkBridge: "native") but cannot be used: it was not built for linux-arm64 (...).`,
  },
  ERR_SANDBOX_NODE_BRIDGE_MISSING: {
    family: "sandbox",
    title: "The package's built Node bridge is missing",
    message:
      "The sandbox's Node bridge is missing from this installation (${path}); reinstall or rebuild @paperclipai/adapter-utils.",
    meaning:
      "The allowlist scope starts a bridge inside the sandbox that relays the program's proxy connections to the host proxy. When the native bridge is not used, that bridge is `dist/node-bridge.cjs`, which the build writes beside the package's modules and every run copies into its private directory. The file was not there, so nothing was started. `details.path` holds where it was looked for.",
    when: "A partial or pruned install, a build interrupted before tsup wrote every entry, or a bundler that inlined the package's modules into another build without copying `dist/node-bridge.cjs`.",
    solutions: [
      "Reinstall the package (`npm install @paperclipai/adapter-utils@sandbox`), or rebuild it from source (`pnpm --filter @paperclipai/adapter-utils build`).",
      "When bundling the package into your own build, mark `@paperclipai/adapter-utils` as external so its `dist/` files stay beside it.",
      "Run `paperclip-sandbox doctor`: its bridge check shows which bridge runs.",
    ],
    prevention: "Install the package from its published tarball and keep it external to bundlers.",
    example: `await runChildProcess("run-1", "curl", ["https://api.example.com"], { ...opts, localProcessSandbox: { workspaceDir, networkScope: "allowlist", networkAllowlist: ["api.example.com"] } });
// SandboxError [ERR_SANDBOX_NODE_BRIDGE_MISSING]: The sandbox's Node bridge is missing from this installation (/app/node_modules/@paperclipai/adapter-utils/dist/node-bridge.cjs); reinstall or rebuild @paperclipai/adapter-utils.`,
  },
  ERR_SANDBOX_COURIER_UNREACHABLE: {
    family: "sandbox",
    title: "The sandbox bridge could not reach its tunnel courier",
    message: "The sandbox bridge could not reach its tunnel courier and did not start the program.",
    meaning:
      "With the native bridge, the host proxy starts a courier that hands long CONNECT tunnels over to the bridge inside the sandbox. The bridge is told (bwrap `--setenv PAPERCLIP_SANDBOX_COURIER 1`) that a courier serves its run, and connects to it before it starts the program. It could not: the courier's socket was gone or refused it (a courier that exited, a private directory removed under the run). The bridge fails closed instead of running without the handoff: the courier keeps exactly one connection, so a program that started first could otherwise be the one it serves. Nothing ran; `details.reason` holds the bridge's own words (at most 300 characters).",
    when: "A host under memory pressure that killed the courier between the proxy's start and the sandbox's, or a cleanup that removed the run's private directory while the run was starting.",
    solutions: [
      "Run the command again: a new run starts a new courier.",
      "Run `paperclip-sandbox doctor`: it says whether the handoff is on and which bridge runs.",
      'Use the Node bridge (`networkBridge: "node"` or `PAPERCLIP_SANDBOX_BRIDGE=node`), which has no courier, if it keeps happening.',
    ],
    prevention:
      "Do not remove the private socket roots (`/dev/shm/paperclip-sandbox-sockets-<uid>`) while runs are starting.",
    example: `await runChildProcess("run-1", "curl", ["https://api.example.com"], { ...opts, localProcessSandbox: { workspaceDir, networkScope: "allowlist", networkAllowlist: ["api.example.com"] } });
// SandboxError [ERR_SANDBOX_COURIER_UNREACHABLE]: The sandbox bridge could not reach its tunnel courier and did not start the program.`,
  },
  ERR_SANDBOX_BIND_CHANGED: {
    family: "sandbox",
    title: "A sandbox bind changed between its check and its mount",
    message: "A sandbox bind changed between its check and its mount; the program did not run.",
    meaning:
      "The builder judges every path it binds (workspace, cwd, extra and managed paths, bind-backs) by its real path, and records what sits there (device and inode, from a descriptor whose name shows no component became a link). bwrap, started later, follows links again when it mounts. Before the program starts, the exec shim checks inside the sandbox that every bind still in sight shows that same file and is a mount's root; a path another process swapped for a link in between (`<ws>/cfg` -> `../../../../tmp`) would have bound the host's `/tmp` or `/run`. Then nothing ran: `details.stage` is `build` when the builder already saw the change (`details.path`, `details.realPath`), `sandbox` when the shim did (`details.destination`).",
    when: "A path of the run (the workspace, an extra or managed path, an alias target, or a directory above one) was swapped during the run's setup by another program: another run writing the same workspace is the usual one. Or the source was replaced between the build of a target and its spawn: a caller of `buildLocalProcessSandboxSpawnTarget` that keeps the argv and spawns it later, after something renamed, recreated or replaced a bound path. The error is not retryable: while the other program keeps swapping the path, or the kept argv is spawned again, every attempt fails the same way.",
    solutions: [
      "Find what replaced the path (`details.path` or `details.destination`): a program of another run of the same workspace is the usual cause; stop it, then run again.",
      "Spawn the argv right after building it; build a new target for every spawn instead of keeping one.",
    ],
    prevention:
      "Do not start runs that can write each other's paths at the same time, and spawn each target as soon as it is built.",
    example: `await runChildProcess("run-1", "ls", [], { ...opts, localProcessSandbox: { workspaceDir, filesystemScope: "workspace", extraPaths: [{ path: \`\${workspaceDir}/cfg\`, access: "ro" }] } });
// SandboxError [ERR_SANDBOX_BIND_CHANGED]: A sandbox bind changed between its check and its mount; the program did not run.`,
  },
  ERR_SANDBOX_BWRAP_OPTION_UNKNOWN: {
    family: "sandbox",
    title: "The sandbox's bwrap argv holds an option its bind check does not know (a bug)",
    message: "The sandbox's bwrap argv holds an option its bind check does not know: ${option}.",
    meaning:
      "Before the program starts, the exec shim checks every bind still in sight (`ERR_SANDBOX_BIND_CHANGED`); the builder finds those binds by walking its own bwrap argv, which needs to know how many arguments each option takes. An option it does not know could make it take a later bind for an argument and leave that bind unchecked, so the build stops before anything is spawned. The builders emit only options the walk knows: this is a bug in this package, not in the caller's options. `details.option` is the option, `details.index` its place in the argv.",
    when: "A change to the sandbox builders added a bwrap option without teaching the bind walk (`src/bwrap/final-binds.ts`) its arguments.",
    solutions: [
      "Report it with `details.option` and the package version; use the previous release meanwhile.",
    ],
    prevention: "None on the caller's side: the package's tests walk the argv of every scope layout.",
  },
  ERR_SANDBOX_UNSUPPORTED_OPTION: {
    family: "sandbox",
    title: "runChildProcess was given an upstream option it does not implement",
    message:
      "runChildProcess does not implement the upstream option(s) ${options}; refusing to run without them.",
    meaning:
      "Upstream's `runChildProcess` accepts options this package does not implement: `remoteExecution` (run the command on a remote host over SSH) and `terminalResultCleanup` (stop the process group once the output shows a terminal result, and report it in the result). Ignoring them would silently run the command on this machine, or leave it running, which is not what the caller asked for, so the call fails before anything is spawned or created. `details.options` names the options; their values are never included (a remote spec carries hosts and keys).",
    when: "An adapter written for upstream `@paperclipai/adapter-utils` switches to this package and passes a non-null `remoteExecution` or a `terminalResultCleanup` object. `null` and `undefined` mean the upstream default (a local run, no terminal-result cleanup) and are accepted.",
    solutions: [
      "For remote (SSH) execution or terminal-result cleanup, keep calling upstream `@paperclipai/adapter-utils`'s `runChildProcess` for those runs.",
      "For a local run, pass `remoteExecution: null` (or leave it out) and leave `terminalResultCleanup` out.",
      "Read `details.options` to see which option was refused.",
    ],
    prevention:
      "Choose the implementation per run: this package for local (optionally sandboxed) runs, upstream for remote ones. https://github.com/paperclipai/paperclip/blob/main/docs/adapter-utils/run-child-process.md lists which upstream options are accepted and which are refused.",
    example: `await runChildProcess("run-1", "codex", [], { ...opts, remoteExecution: sshSpec });
// SandboxError [ERR_SANDBOX_UNSUPPORTED_OPTION]: runChildProcess does not implement the upstream option(s) "remoteExecution"; refusing to run without them.`,
  },
  ERR_SANDBOX_TMPFS_SIZE: {
    family: "sandbox",
    title: "The sandbox's tmpfsSizeBytes is not a usable size",
    message: "Sandbox tmpfsSizeBytes must be a whole number of bytes from ${min} to ${max}; got ${value}.",
    meaning:
      "`tmpfsSizeBytes` caps each writable tmpfs of the sandbox (bwrap `--size`): the workspace scope's root and `/tmp`, the network-only scope's private `/tmp`, `/run`, `/var/run` and `$XDG_RUNTIME_DIR`. Those are memory, not disk, and a program that fills them takes the host's memory until its run ends. The value given is not a whole number of bytes from one page (4096) up to `Number.MAX_SAFE_INTEGER`: a string, a fraction, zero (which tmpfs reads as no limit), a negative, NaN or Infinity. Nothing was created. `details.value` shows what was given (a string cut to 40 characters), `details.min` and `details.max` the bounds.",
    when: 'A size read from configuration as a string (`"64m"`, `"67108864"`), computed as a fraction (`ram * 0.1`), or left at 0 to mean no cap.',
    solutions: [
      "Pass a number of bytes: `64 * 1024 * 1024` for 64 MiB.",
      "Leave the option out (or `null`) for no cap, as upstream.",
    ],
    prevention:
      'Convert sizes from configuration with `Math.floor` and check them before building the sandbox options. The option needs bwrap 0.8.0 or later (`--size`); an older bwrap fails the run\'s setup (`ERR_SANDBOX_SETUP_FAILED`, "Unknown option --size").',
    example: `await runChildProcess("run-1", "node", ["build.js"], { ...opts,
  localProcessSandbox: { workspaceDir: "/home/u/ws", filesystemScope: "workspace", tmpfsSizeBytes: "64m" } });
// SandboxError [ERR_SANDBOX_TMPFS_SIZE]: Sandbox tmpfsSizeBytes must be a whole number of bytes from 4096 to 9007199254740991; got "64m".`,
  },
  ERR_SANDBOX_LOG_CALLBACK_STALLED: {
    family: "sandbox",
    title: "runChildProcess stopped calling an onLog callback that did not settle",
    message: "onLog did not settle within ${stallMs} ms; it is not called again for this run.",
    meaning:
      "`runChildProcess` hands output to `onLog` one chunk at a time and pauses the child's output while a call is pending (backpressure, as upstream). A call that neither resolves nor rejects within `onLogStallMs` (default 30 s) would otherwise freeze the child on a full pipe and the run forever. The call is abandoned: this error goes to `onLogError` (it is not thrown), `onLog` is not called again for the run, the output keeps being captured in the result's `stdout`/`stderr` (the last 4 MiB of each), and the run resolves with the child's real exit status. A late settlement of the abandoned call is ignored. `details.stream` names the stream, `details.stallMs` the limit.",
    when: "An `onLog` callback awaits something that never happens (a lost database connection without a timeout, a queue nobody drains), or takes longer than `onLogStallMs` for one chunk.",
    solutions: [
      "Give the I/O inside `onLog` its own timeout, or make `onLog` enqueue and return at once.",
      "Raise `onLogStallMs` if one chunk legitimately takes longer to store.",
      "Read the run's output from the result's `stdout` and `stderr`, which keep being captured after the callback was abandoned.",
    ],
    prevention: "Keep `onLog` fast and bounded; it runs once per output chunk of the child.",
    example: `await runChildProcess("run-1", "claude", [], { ...opts, onLog: () => new Promise(() => {}), onLogStallMs: 1000 });
// onLogError receives SandboxError [ERR_SANDBOX_LOG_CALLBACK_STALLED]: onLog did not settle within 1000 ms; it is not called again for this run.`,
  },
  ERR_SANDBOX_CLEANUP_UNFINISHED: {
    family: "sandbox",
    title: "The cleanup of a per-run sandbox directory stopped with entries left (internal)",
    message: 'Sandbox cleanup gave up on "${dir}" after ${rounds} rounds with ${entriesLeft} entries left.',
    internal: true,
    meaning:
      "A per-run directory (the network-only scope's private `/tmp` and masks, a proxy directory) is removed by a walk that never follows a link and holds at most 64 directories open: deeper directories are moved to the top of the run directory and taken in a later round, and one that cannot move (a mount point, a subtree on another filesystem) is walked in place within 64 more. The walk ended with entries still at its top: it reached its cap of 4096 rounds, a round found new entries written at the top while it ran, or a subtree on another filesystem was deeper than both caps. It ends before the directory's owner record is touched. This error is internal: the cleanup (`removeProxyTempDir`, the stale-directory sweeps) catches it, like any other failure to remove a run directory, and reports it to no caller and no log; the run's result is unaffected. The directory is left on disk with its owner record, so the stale-directory sweep of a later start removes it once the process that owned it is gone. `details.dir` is the run directory (a path the sandbox layer made, not a secret), `details.rounds` the rounds walked, `details.entriesLeft` how many entries were left at its top.",
    when: "A process outside the sandbox (or one that escaped the run's end) kept writing into the run directory while it was removed, a program left a tree deeper than 262,144 levels, or a filesystem mounted inside the run directory holds a tree more than 128 levels deep.",
    solutions: [
      "Find leftover run directories: `ls -d /tmp/paperclip-network-sandbox-* \"${TMPDIR:-/tmp}\"/paperclip-network-sandbox-*` (and the same name under any base directory you configured), and the directories (other than `owners`) inside the private socket roots `/dev/shm/paperclip-sandbox-sockets-<uid>`, `/tmp/paperclip-sandbox-sockets-<uid>` and `/run/user/<uid>/paperclip-sandbox-sockets-<uid>`. A directory inside a root holds its owner record as `owner.json`; any other has it in `<root>/owners/<hash>.json`. The record's `pid` (with `startTicks`, the process's start time) names the process that owned the directory.",
      "If that process is gone, leave the directory to the next start's sweep, or look for a process still writing into it (`fuser -v`, `lsof +D`), stop it, and remove the directory with `rm -rf --one-file-system` (unmount anything mounted in it first).",
      "Treat the host as touched by the run that owned the directory if nothing you started writes there.",
    ],
    prevention:
      "Let the sandbox's program exit with its run (the default `--die-with-parent` and process-group kill do this); do not share run directories with other tools or mount filesystems inside them.",
  },
  ERR_SANDBOX_ENV_INVALID: {
    family: "sandbox",
    title: "A loader variable of the sandbox env cannot be passed to the program",
    message: "Invalid sandbox env: ${subject} ${reason}.",
    meaning:
      "bwrap itself runs on the host, dynamically linked, before any namespace exists: a dynamic-loader variable in its environment (`LD_PRELOAD`, `LD_LIBRARY_PATH`, `LD_AUDIT`, any other `LD_*`, `GLIBC_TUNABLES`, `MALLOC_*` and the rest of glibc's unsecure list) would load code, or make libc read files, in bwrap's own process. So these variables are never in bwrap's environment; they reach the program as bwrap arguments (`--setenv NAME VALUE`), which bwrap applies after it has started. An argument cannot hold a NUL byte and bwrap cannot set a name with `=`, so such a variable, or one whose value is not a string, is refused before anything is created instead of failing inside bwrap. The `env` of `buildLocalProcessSandboxSpawnTarget`'s input must be an object. `details.name` names the variable (`null` for the whole env), `details.reason` says what is wrong; the value is never included.",
    when: '`runChildProcess` with a `localProcessSandbox` whose `env` (or the host\'s) holds, for example, `{ LD_LIBRARY_PATH: "a\\0b" }` or `{ LD_PRELOAD: 42 }`; `buildLocalProcessSandboxSpawnTarget({ ..., env: "x" })`.',
    solutions: [
      "Pass loader variables as strings without NUL bytes (`String(value)`), or leave them out.",
      "Pass `buildLocalProcessSandboxSpawnTarget` the same env object the target is spawned with, or leave `env` out.",
    ],
    prevention:
      "Build the agent's env from strings only; read `details.name` to find the variable that is wrong.",
    example: `await runChildProcess("run-1", "codex", [], { ...opts, env: { LD_PRELOAD: "a\\0b" } });
// SandboxError [ERR_SANDBOX_ENV_INVALID]: Invalid sandbox env: "LD_PRELOAD"'s value holds a NUL.`,
  },
} as const satisfies RegistryTable<"SANDBOX", "sandbox">;
