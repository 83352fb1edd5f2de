import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, probeScopesAfterHostSetup } from "./sandbox-support.js";
import { SCOPE_MATRIX, type ScopeName } from "./scope-matrix.js";

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

/**
 * A read-only file does not keep its directory in place: Linux renames a directory that
 * merely holds a mount point, so the program moved the directory away with the protected
 * file in it and made one of its own, holding the name servers of its choice, where the
 * host's `/etc/resolv.conf` link leads. Each directory between the workspace and the file
 * is now a mount point (`EBUSY`), still writable for the program.
 */
describe("a workspace /run holding the directory of the resolver file", () => {
  // One scope per run: a swap in one would leave the next a host that is no longer the host's.
  const cases = (Object.keys(SCOPE_MATRIX) as ScopeName[]).flatMap((scope) => [
    ["resolvconf", "/run/resolvconf", scope, "/run/resolvconf"] as const,
    ["systemd-resolved", "/run/systemd", scope, "/run/systemd/resolve"] as const,
  ]);
  it.each(cases)("keeps the directory in place (%s, renaming %s, %s)", async (_, renamed, scope, dir) => {
    expect(process.getuid?.(), "the runner is root").toBe(0);
    const file = `${dir}/resolv.conf`;
    const setup = [
      "mount -t tmpfs tmpfs /run",
      `mkdir -p ${dir} && echo 'nameserver 192.0.2.53' > ${file}`,
      `cp -a /etc /run/etc-copy && ln -sfn ${file} /run/etc-copy/resolv.conf`,
      "mount --bind /run/etc-copy /etc",
    ].join(" && ");
    const swap = `mv ${renamed} ${renamed}.old && mkdir -p ${dir} && echo 'nameserver 203.0.113.7' > ${file}`;
    const program = [
      `if (${swap}) 2>/dev/null; then echo swapped; else echo kept; fi`,
      // Kept in place, not made read-only: the workspace stays the program's to write.
      `touch ${dir}/probe && rm ${dir}/probe && echo writable`,
      "cat /etc/resolv.conf",
    ].join("; ");
    const out = await probeScopesAfterHostSetup(setup, {
      command: "/bin/sh",
      args: ["-c", program],
      workspace: "/run",
      scopes: { [scope]: SCOPE_MATRIX[scope] },
    });
    expect(out).toEqual({ [scope]: "kept\nwritable\nnameserver 192.0.2.53\n" });
  });
});
