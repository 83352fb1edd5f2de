import type { DoctorCheck } from "./doctor-check.js";

/**
 * A root runner's network-only sandbox (`--host-fs`, or a network scope without a
 * filesystem scope) is uid 0 on the host tree: `/etc` is read-only there, but `/usr`,
 * `/var/spool/cron`, `/root` and every other file root owns are not, and the host runs
 * them later, outside any sandbox, with its network (docs/adapter-utils/security.md).
 * A warning, not a failure: the workspace scope is unaffected.
 */
export function checkRootRunner(uid: number | undefined): DoctorCheck | null {
  if (uid !== 0) return null;
  return {
    name: "root runner",
    status: "warn",
    detail:
      "running as root: a network-only program (--host-fs, or networkScope without filesystemScope) is uid 0 and can write the host's files outside /etc (/usr, /var/spool/cron, /root), which run later outside the sandbox with the host's network; run untrusted programs in the workspace scope, or run the sandbox as a uid of its own (see https://github.com/paperclipai/paperclip/blob/main/docs/adapter-utils/security.md)",
  };
}
