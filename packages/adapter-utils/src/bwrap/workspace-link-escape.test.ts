import { describe, expect, it } from "vitest";
import { findWorkspaceLinkEscape } from "./workspace-link-escape.js";

const WORKSPACE = { path: "/home/u/ws", real: "/srv/ws" };
/** The workspace scope refuses every link out; the network-only scope only toward what it hides. */
const WORKSPACE_SCOPE = null;
const NETWORK_ONLY_HIDDEN = [
  "/tmp",
  "/run",
  "/var/run",
  "/run/user/1000",
  "/dev/shm",
  "/dev/shm/paperclip-sandbox-sockets-1000",
];

describe("findWorkspaceLinkEscape", () => {
  it("passes the workspace itself, paths outside it, and links that stay inside it", () => {
    for (const hidden of [WORKSPACE_SCOPE, NETWORK_ONLY_HIDDEN]) {
      expect(
        findWorkspaceLinkEscape(
          [
            { requested: "/home/u/ws", real: "/srv/ws" },
            { requested: "/home/u/ws/cache", real: "/srv/ws/cache" },
            { requested: "/home/u/ws/link", real: "/srv/ws/vendor/lib" },
            { requested: "/home/u/tools", real: "/opt/tools" },
            { requested: "/home/u/ws-other/x", real: "/run/docker.sock" },
          ],
          WORKSPACE,
          hidden,
        ),
      ).toBeNull();
    }
  });

  it("finds a path spelt inside the workspace that a link takes out of it", () => {
    expect(
      findWorkspaceLinkEscape(
        [
          { requested: "/home/u/ws/cache", real: "/srv/ws/cache" },
          { requested: "/home/u/ws/run", real: "/run/user/1000/bus" },
        ],
        WORKSPACE,
        WORKSPACE_SCOPE,
      ),
    ).toEqual({ requested: "/home/u/ws/run", real: "/run/user/1000/bus" });
  });

  // A cwd is often `process.cwd()`, the real path, while the workspace is named through a link.
  it("finds such a path spelt below the workspace's real path, the workspace's real path itself passing", () => {
    expect(
      findWorkspaceLinkEscape(
        [
          { requested: "/srv/ws", real: "/srv/ws" },
          { requested: "/srv/ws/src", real: "/srv/ws/src" },
          { requested: "/srv/ws/cache", real: "/run/user/1000" },
        ],
        WORKSPACE,
        NETWORK_ONLY_HIDDEN,
      ),
    ).toEqual({ requested: "/srv/ws/cache", real: "/run/user/1000" });
  });

  // `--bind / /` shows every host directory already: only a hidden one would be shown anew.
  it("in the network-only scope passes links to ordinary host directories and finds those under a hidden path", () => {
    const ordinary = [
      { requested: "/home/u/ws/node_modules", real: "/home/u/.local/share/pnpm/store/v10/links" },
      { requested: "/home/u/ws/app", real: "/home/u/code/app" },
    ];
    expect(findWorkspaceLinkEscape(ordinary, WORKSPACE, NETWORK_ONLY_HIDDEN)).toBeNull();
    expect(findWorkspaceLinkEscape(ordinary, WORKSPACE, WORKSPACE_SCOPE)).toEqual(ordinary[0]);
    for (const real of [
      "/tmp/ssh-XXXX",
      "/run",
      "/run/user/1000/bus",
      "/dev/shm/paperclip-sandbox-sockets-1000/r",
    ]) {
      expect(
        findWorkspaceLinkEscape(
          [...ordinary, { requested: "/home/u/ws/cache", real }],
          WORKSPACE,
          NETWORK_ONLY_HIDDEN,
        ),
      ).toEqual({ requested: "/home/u/ws/cache", real });
    }
  });

  // A workspace under /tmp is bound back over the mask: links that stay in it are its own.
  it("passes a link that stays in a workspace lying under a hidden path", () => {
    expect(
      findWorkspaceLinkEscape(
        [{ requested: "/tmp/ws/cur", real: "/tmp/ws/releases/7" }],
        { path: "/tmp/ws", real: "/tmp/ws" },
        NETWORK_ONLY_HIDDEN,
      ),
    ).toBeNull();
  });

  it("judges the whole workspace, / included", () => {
    expect(
      findWorkspaceLinkEscape(
        [{ requested: "/tmp", real: "/run" }],
        { path: "/", real: "/" },
        WORKSPACE_SCOPE,
      ),
    ).toBeNull();
  });
});
