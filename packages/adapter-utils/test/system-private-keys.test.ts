import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, probeScopesAfterHostSetup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * A host's TLS keys where Debian keeps them: `/etc/ssl/private` (0710 root:ssl-cert), in a
 * private mount namespace so that the host's own stays untouched. The workspace scope shows
 * `/etc/ssl` for its certificates, and a root runner's program is uid 0, the owner of every
 * key there, so file modes alone do not keep it out.
 */
const PLANT = [
  "mount -t tmpfs -o mode=0710 tmpfs /etc/ssl/private",
  "printf 'SERVER KEY\\n' > /etc/ssl/private/server.key",
  "chmod 0640 /etc/ssl/private/server.key",
].join(" && ");

/** Runs in the sandbox: the key, what the directory lists, and whether the certificates are still there. */
const PROBE = [
  "cat /etc/ssl/private/server.key 2>/dev/null || echo 'no key'",
  "ls -A /etc/ssl/private 2>/dev/null | tr '\\n' ' '; echo '(listed)'",
  "test -d /etc/ssl/certs && echo certs",
].join("; ");

const SCOPES = {
  workspace: { filesystemScope: "workspace" },
  workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
  workspaceAllowlist: {
    filesystemScope: "workspace",
    networkScope: "allowlist",
    networkAllowlist: ["127.0.0.1:1"],
  },
} as const;

describe("private keys under the system paths the workspace scope shows", () => {
  it("/etc/ssl/private is empty in the sandbox, while /etc/ssl/certs stays", async () => {
    const ws = await scratchDir();
    const outcomes = await probeScopesAfterHostSetup(PLANT, {
      command: "/bin/sh",
      args: ["-c", PROBE],
      workspace: ws,
      scopes: SCOPES,
    });
    for (const name of Object.keys(SCOPES)) {
      expect(outcomes[name], name).toBe("no key\n(listed)\ncerts\n");
    }
  }, 90_000);
});
