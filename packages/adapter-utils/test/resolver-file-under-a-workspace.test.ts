import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, probeScopesAfterHostSetup } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

/**
 * The host's proxy reads `/etc/resolv.conf` (through its link) each time a run's proxy
 * starts. Where it links into `/run` (resolvconf, NetworkManager: a root-owned file), a
 * root runner's program with the workspace `/run`, the host's, could rewrite it and name
 * the name servers of every later run's proxy. In a private mount namespace `/run` is a
 * fresh tmpfs holding such a file and `/etc` a copy whose `resolv.conf` links to it.
 */
describe("a workspace /run on a host whose /etc/resolv.conf links into it", () => {
  it("shows the resolver file read-only in every scope", async () => {
    expect(process.getuid?.(), "the runner is root").toBe(0);
    const setup = [
      "mount -t tmpfs tmpfs /run",
      "mkdir -p /run/resolvconf && echo 'nameserver 192.0.2.53' > /run/resolvconf/resolv.conf",
      "cp -a /etc /run/etc-copy && ln -sfn /run/resolvconf/resolv.conf /run/etc-copy/resolv.conf",
      "mount --bind /run/etc-copy /etc",
    ].join(" && ");
    const write = "echo 'nameserver 203.0.113.7' >> /run/resolvconf/resolv.conf";
    const out = await probeScopesAfterHostSetup(setup, {
      command: "/bin/sh",
      args: ["-c", `if (${write}) 2>/dev/null; then echo written; else echo refused; fi`],
      workspace: "/run",
      scopes: SCOPE_MATRIX,
    });
    expect(out).toEqual(Object.fromEntries(Object.keys(SCOPE_MATRIX).map((name) => [name, "refused\n"])));
  });
});
