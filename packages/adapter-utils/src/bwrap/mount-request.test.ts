import { describe, expect, it } from "vitest";
import { type MountRequest, orderMountRequests } from "./mount-request.js";

/** A start-up path of a program that lives in `programDir` (by default the path itself). */
const program = (path: string, programDir = path): MountRequest => ({ path, access: "ro", programDir });

describe("orderMountRequests", () => {
  it("drops a later request for the same path and mounts parents first", () => {
    expect(
      orderMountRequests([
        { path: "/ws/.git", access: "ro" },
        { path: "/ws", access: "rw" },
        { path: "/ws/.git", access: "rw" },
      ]),
    ).toEqual([
      { path: "/ws", access: "rw" },
      { path: "/ws/.git", access: "ro" },
    ]);
  });

  it("adds no mount for a program's path that is the workspace: it stays writable", () => {
    expect(orderMountRequests([program("/ws"), { path: "/ws", access: "rw" }])).toEqual([
      { path: "/ws", access: "rw" },
    ]);
  });

  it("adds no mount for a program's path below a requested one, whatever the requested access", () => {
    expect(
      orderMountRequests([
        program("/ws/bin"),
        program("/ws/tools/pkg"),
        { path: "/ws/tools", access: "ro" },
        { path: "/ws", access: "rw" },
      ]),
    ).toEqual([
      { path: "/ws", access: "rw" },
      { path: "/ws/tools", access: "ro" },
    ]);
  });

  it("keeps a program's path outside every request, and one above a request, read-only", () => {
    expect(
      orderMountRequests([
        program("/opt/tool/bin"),
        program("/home/u", "/home/u/bin"),
        { path: "/home/u/ws", access: "rw" },
        { path: "/home/u/ws-tools", access: "rw" },
      ]),
    ).toEqual([
      program("/home/u", "/home/u/bin"),
      program("/opt/tool/bin"),
      { path: "/home/u/ws", access: "rw" },
      { path: "/home/u/ws-tools", access: "rw" },
    ]);
  });

  it("adds no mount for the package root above the workspace of a program that lives in it", () => {
    // A stray /home/u/package.json makes /home/u the package root of /home/u/ws/run.sh.
    expect(
      orderMountRequests([
        program("/home/u/ws", "/home/u/ws"),
        program("/home/u", "/home/u/ws"),
        { path: "/home/u/ws", access: "rw" },
      ]),
    ).toEqual([{ path: "/home/u/ws", access: "rw" }]);
  });

  it("judges a program by its real directory against a requested path's real source", () => {
    expect(
      orderMountRequests([
        program("/home/u", "/data/ws/bin"),
        { path: "/home/u/ws-link", source: "/data/ws", access: "rw" },
      ]),
    ).toEqual([{ path: "/home/u/ws-link", source: "/data/ws", access: "rw" }]);
  });

  it("judges coverage by whole path components, not by string prefix", () => {
    expect(orderMountRequests([program("/ws-bin"), { path: "/ws", access: "rw" }])).toEqual([
      program("/ws-bin"),
      { path: "/ws", access: "rw" },
    ]);
  });

  it("lets programs' paths overlap one another (both read-only)", () => {
    expect(orderMountRequests([program("/opt/tool/bin"), program("/opt/tool")])).toEqual([
      program("/opt/tool"),
      program("/opt/tool/bin"),
    ]);
  });
});
