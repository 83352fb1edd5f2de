import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, devWithShmIn, probeScopesAfterHostSetup } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

const uid = process.getuid?.() ?? 0;
const root = `/run/shm/paperclip-sandbox-sockets-${uid}`;

/**
 * A private socket root is a place on the host, whatever its spelling: where `/dev/shm` is a
 * link to `/run/shm`, the root `/dev/shm/paperclip-sandbox-sockets-<uid>` is really under
 * `/run`, and a workspace `/run` (bound back from the host) showed it unless it was masked
 * under its real spelling too. The host's `/dev` is replaced, in a private mount namespace,
 * by one whose `shm` links to a fresh `/run/shm` holding a planted root.
 */
describe("a workspace /run on a host whose /dev/shm links to /run/shm", () => {
  it("keeps the socket root hidden in every scope that shows the host's /run", async () => {
    const setup = [
      "mount -t tmpfs tmpfs /run",
      ...devWithShmIn("/run"),
      `mkdir -m 700 ${root} && echo secret > ${root}/planted`,
    ].join(" && ");
    const out = await probeScopesAfterHostSetup(setup, {
      command: "/bin/sh",
      args: ["-c", `ls -A ${root} 2>&1; echo listed`],
      workspace: "/run",
      scopes: { networkOnlyDeny: SCOPE_MATRIX.networkOnlyDeny, workspace: SCOPE_MATRIX.workspace },
    });
    expect(out).toEqual({ networkOnlyDeny: "listed\n", workspace: "listed\n" });
  });
});

/**
 * Where `/dev/shm` links out of every place a sandbox hides (here `/var/tmp/shm`), the root
 * `/dev/shm/paperclip-sandbox-sockets-<uid>` lay in the network-only scope's host tree: the
 * program listed every run's directory there (proxy sockets, owner records) and the private
 * copies of the native binaries the host executes, which a root runner's program could
 * rewrite. Such a root is no longer used: the next one (`/tmp`) serves.
 */
describe("a host whose /dev/shm links outside /dev, /tmp and /run", () => {
  it("puts nothing of the sandbox there for the network-only scope to see", async () => {
    // The root that serves instead is /tmp's: the namespace's own, so the host's /tmp keeps nothing.
    const setup = [
      "mount -t tmpfs tmpfs /tmp",
      "mount -t tmpfs tmpfs /var/tmp",
      "mkdir -p /var/tmp/ws",
      ...devWithShmIn("/var/tmp"),
    ].join(" && ");
    const out = await probeScopesAfterHostSetup(setup, {
      command: "/bin/sh",
      args: ["-c", "ls -A /var/tmp/shm 2>&1; echo listed"],
      workspace: "/var/tmp/ws",
      scopes: {
        networkOnlyDeny: SCOPE_MATRIX.networkOnlyDeny,
        networkOnlyAllowlist: SCOPE_MATRIX.networkOnlyAllowlist,
      },
    });
    expect(out).toEqual({ networkOnlyDeny: "listed\n", networkOnlyAllowlist: "listed\n" });
  });
});
