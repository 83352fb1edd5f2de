import { describe, expect, it } from "vitest";
import {
  type BoundDirectory,
  findLinkedAliasDestination,
  type HostEntry,
} from "./alias-destination-links.js";

/** The workspace is asked for through a link (`/home/u/ws -> /srv/ws`), with a read-only `.git`. */
const BINDS: BoundDirectory[] = [
  { dest: "/home/u/ws", source: "/srv/ws" },
  { dest: "/home/u/ws/.git", source: "/srv/ws/.git" },
];

function host(entries: Record<string, HostEntry>): (hostPath: string) => HostEntry {
  return (hostPath) => entries[hostPath] ?? "missing";
}

describe("findLinkedAliasDestination", () => {
  it("passes aliases of the fresh root, of a bind itself, and below a bind through plain directories", () => {
    const entries = host({ "/srv/ws/sub": "present", "/srv/ws/sub/dir": "present" });
    expect(
      findLinkedAliasDestination(
        [
          { path: "/app", target: "/srv/ws" },
          { path: "/home/u/ws", target: "/srv/ws/cache" },
          { path: "/home/u/ws/sub/dir/new/deeper", target: "/srv/ws/cache" },
          // `/home/u/wsx` shares a prefix with the workspace, not a directory.
          { path: "/home/u/wsx/.tool/x", target: "/srv/ws/cache" },
        ],
        BINDS,
        entries,
      ),
    ).toBeNull();
  });

  it("finds a link on the way to an alias below the workspace, on the host path bwrap reaches", () => {
    const seen: string[] = [];
    const found = findLinkedAliasDestination(
      [{ path: "/home/u/ws/.tool/made-by-bwrap", target: "/srv/ws/cache" }],
      BINDS,
      (hostPath) => {
        seen.push(hostPath);
        return hostPath === "/srv/ws/.tool" ? "link" : "missing";
      },
    );
    expect(found).toEqual({
      alias: "/home/u/ws/.tool/made-by-bwrap",
      bound: "/home/u/ws",
      link: "/srv/ws/.tool",
    });
    expect(seen).toEqual(["/srv/ws/.tool"]);
  });

  it("refuses an alias that is itself a link, and judges below the deepest bind (the read-only .git)", () => {
    expect(
      findLinkedAliasDestination(
        [{ path: "/home/u/ws/cache-link", target: "/srv/ws/cache" }],
        BINDS,
        host({ "/srv/ws/cache-link": "link" }),
      ),
    ).toEqual({ alias: "/home/u/ws/cache-link", bound: "/home/u/ws", link: "/srv/ws/cache-link" });
    expect(
      findLinkedAliasDestination(
        [{ path: "/home/u/ws/.git/hooks/x", target: "/srv/ws/cache" }],
        BINDS,
        host({ "/srv/ws/.git/hooks": "link" }),
      ),
    ).toEqual({ alias: "/home/u/ws/.git/hooks/x", bound: "/home/u/ws/.git", link: "/srv/ws/.git/hooks" });
  });

  it("stops at the first missing component: bwrap creates the rest inside the bind", () => {
    const seen: string[] = [];
    expect(
      findLinkedAliasDestination(
        [{ path: "/home/u/ws/a/b/c", target: "/srv/ws/cache" }],
        BINDS,
        (hostPath) => {
          seen.push(hostPath);
          return "missing";
        },
      ),
    ).toBeNull();
    expect(seen).toEqual(["/srv/ws/a"]);
  });

  it("judges an alias below an earlier alias on that alias's target", () => {
    expect(
      findLinkedAliasDestination(
        [
          { path: "/app", target: "/srv/ws" },
          { path: "/app/.tool/x", target: "/srv/ws/cache" },
        ],
        BINDS,
        host({ "/srv/ws/.tool": "link" }),
      ),
    ).toEqual({ alias: "/app/.tool/x", bound: "/app", link: "/srv/ws/.tool" });
  });
});
