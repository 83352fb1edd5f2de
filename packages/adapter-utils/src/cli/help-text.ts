/** What `paperclip-sandbox --help` prints. */
export const HELP_TEXT = `paperclip-sandbox: run a command in the Paperclip local-process sandbox (bubblewrap).

Usage:
  paperclip-sandbox [options] -- CMD [ARGS...]
  paperclip-sandbox doctor [--json]

Options:
  --workspace DIR      The writable workspace (default: the current directory).
  --ro PATH            Also show PATH read-only (repeatable).
  --rw PATH            Also show PATH read-write (repeatable).
  --net deny|allowlist No network at all (default), or only --allow/--trust targets through the proxy.
  --allow HOST[:PORT]  Allow a host: bare host = ports 80 and 443, host:PORT, host:* (repeatable; implies --net allowlist).
  --trust URL          Always allow this URL's origin, private addresses included (repeatable).
  --host-fs            Keep the host filesystem visible (network-only confinement).
  --timeout SECONDS    SIGTERM after this long, SIGKILL 5 s later (default: none).
  --verbose, -v        Log every network decision to stderr.
  --help, -h           This help.  --version, -V  The version.

The exit status is the command's (128+N when signal N ended it); 125 when the
sandbox could not be set up, 126/127 when the command cannot run, 2 on a usage error.

doctor checks bwrap and its version, user namespaces (and Ubuntu's AppArmor
restriction), the proxy socket directory candidates and their path lengths, and
starts real sandboxes; each problem is printed with its error code and the fix.
`;
