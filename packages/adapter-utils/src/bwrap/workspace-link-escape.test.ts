import { describe, expect, it } from "vitest";
import { findWorkspaceLinkEscape } from "./workspace-link-escape.js";

const WORKSPACE = { path: "/home/u/ws", real: "/srv/ws" };

describe("findWorkspaceLinkEscape", () => {
  it("passes the workspace itself, paths outside it, and links that stay inside it", () => {
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
      ),
    ).toBeNull();
  });

  it("finds a path spelt inside the workspace that a link takes out of it", () => {
    expect(
      findWorkspaceLinkEscape(
        [
          { requested: "/home/u/ws/cache", real: "/srv/ws/cache" },
          { requested: "/home/u/ws/run", real: "/run/user/1000/bus" },
        ],
        WORKSPACE,
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
      ),
    ).toEqual({ requested: "/srv/ws/cache", real: "/run/user/1000" });
  });

  it("judges the whole workspace, / included", () => {
    expect(
      findWorkspaceLinkEscape([{ requested: "/tmp", real: "/run" }], { path: "/", real: "/" }),
    ).toBeNull();
  });
});
