import type { RegistryTable } from "./entry.js";

/** Codes thrown by `@paperclipai/adapter-utils` (the local-process sandbox). Owned by the sandbox team. */
export const sandboxRegistry = {
  ERR_SANDBOX_PROXY_SOCKET_DIR: {
    family: "sandbox",
    title: "Unable to create a Linux-safe Paperclip sandbox proxy socket directory",
    message: "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    meaning:
      "The network allowlist proxy listens on a Unix socket `<dir>/proxy.sock`. Linux limits a socket path to 107 bytes (`sun_path` is 108 bytes with the NUL), so the sandbox needs a private directory with a short path. Every candidate base directory (`/tmp`, then `os.tmpdir()`, then `$XDG_RUNTIME_DIR`) failed: `mkdtemp` threw, or the socket path would have been longer than 107 bytes. `cause` holds the last failure and `details.attempts` lists every candidate with its own reason (error code, or the socket path's byte length).",
    when: "`/tmp` is read-only, full (ENOSPC, inodes included), missing or not writable by the runner user (EACCES), and `TMPDIR` points to a deep path (CI workspaces, nested containers) whose `paperclip-network-sandbox-XXXXXX/proxy.sock` exceeds 107 bytes, or is unwritable too. Common in hardened containers with a read-only root, CI runners with a long `TMPDIR`, and sandboxes without write access to any temp directory.",
    solutions: [
      "Read `error.details.attempts`: each candidate shows why it failed (EACCES, EROFS, ENOSPC, ENOENT, or `socketPathBytes` over 107). Fix the first candidate you control.",
      "Point `TMPDIR` at a short, writable directory owned by the runner user, for example `mkdir -m 700 /run/paperclip && export TMPDIR=/run/paperclip`.",
      "Give `/tmp` its standard mode (`chmod 1777 /tmp`) or mount a writable tmpfs there.",
      "Free space and inodes on the filesystem behind `/tmp` (`df -h /tmp; df -i /tmp`).",
      "Run `paperclip-sandbox doctor`: it checks every candidate and prints the fix for each failing one.",
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
} as const satisfies RegistryTable<"SANDBOX", "sandbox">;
