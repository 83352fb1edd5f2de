/** Host paths every workspace-scope sandbox sees read-only, where present. */
export const SYSTEM_READ_PATHS: readonly string[] = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc/ca-certificates",
  "/etc/ssl",
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/nsswitch.conf",
  "/etc/passwd",
  "/etc/group",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/gitconfig",
];

/**
 * Directories inside `SYSTEM_READ_PATHS` that hold the host's secrets: TLS private keys,
 * in `/etc/ssl/private` on Debian (0710 root:ssl-cert; its `/usr/lib/ssl/private` links
 * there) and in OpenSSL's own directory where that is a real one (`/usr/lib/ssl`, or
 * `/usr/local/ssl` for OpenSSL built from source). A root runner's program is uid 0, their
 * owner, so file modes do not keep it out; the workspace scope shows an empty read-only
 * directory there (`system-secret-masks.ts`). A link among them is covered by its target.
 */
export const SYSTEM_SECRET_PATHS: readonly string[] = [
  "/etc/ssl/private",
  "/usr/lib/ssl/private",
  "/usr/local/ssl/private",
];

/**
 * Host directories the network-only scope replaces with private empty ones: they
 * hold other processes' sockets (Docker, ssh-agent, D-Bus, other runs' proxies).
 */
export const NETWORK_SCOPE_MASKED_PATHS: readonly string[] = ["/tmp", "/run", "/var/run"];

/**
 * Host paths shown read-only over the sandbox's own. `/proc/sys` is writable by
 * uid 0 through plain file modes, capabilities or not (a root runner's sandbox
 * could set `kernel.core_pattern` and run code on the host); bwrap covers
 * `/proc/irq` and `/proc/bus` itself but not `/proc/sys`. `/sys` matters for the
 * network-only scope, where the host tree is visible.
 */
export const HARDENED_READ_ONLY_PATHS: readonly string[] = ["/proc/sys", "/sys"];

/**
 * The files the host's proxy resolver reads when a proxy starts: `/etc/hosts` and
 * `/etc/resolv.conf` (its name servers). The network-only scope shows them read-only:
 * a root runner's sandbox owns them, and a line it added (`203.0.113.7
 * api.allowed.test`) would send every allowed request for that name, of any run started
 * after, to its own server. For a root runner all of `ETC_DIR` is read-only (the links
 * too); otherwise each file by its real path, when a link leads outside the masked
 * directories.
 */
export const RESOLVER_FILES: readonly string[] = ["/etc/hosts", "/etc/resolv.conf"];

/** Shown read-only, whole, in a root runner's network-only scope (`network-only-scope-args.ts`). */
export const ETC_DIR = "/etc";

export const PROXY_ENV_KEYS: readonly string[] = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
];

/** Where the bridge listens inside the sandbox's network namespace. */
export const SANDBOX_PROXY_PORT = 31_337;
