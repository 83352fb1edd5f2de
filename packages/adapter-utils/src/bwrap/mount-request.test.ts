import { describe, expect, it } from "vitest";
import { type MountRequest, orderMountRequests } from "./mount-request.js";

const program = (path: string): MountRequest => ({ path, access: "ro", executableDerived: true });

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

  it("adds no mount for an executable-derived path that is the workspace: it stays writable", () => {
    expect(orderMountRequests([program("/ws"), { path: "/ws", access: "rw" }])).toEqual([
      { path: "/ws", access: "rw" },
    ]);
  });

  it("adds no mount for an executable-derived path below a requested one, whatever the requested access", () => {
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

  it("keeps an executable-derived path outside every request, and one above a request, read-only", () => {
    expect(
      orderMountRequests([
        program("/opt/tool/bin"),
        program("/home/u"),
        { path: "/home/u/ws", access: "rw" },
        { path: "/home/u/ws-tools", access: "rw" },
      ]),
    ).toEqual([
      program("/home/u"),
      program("/opt/tool/bin"),
      { path: "/home/u/ws", access: "rw" },
      { path: "/home/u/ws-tools", access: "rw" },
    ]);
  });

  it("judges coverage by whole path components, not by string prefix", () => {
    expect(orderMountRequests([program("/ws-bin"), { path: "/ws", access: "rw" }])).toEqual([
      program("/ws-bin"),
      { path: "/ws", access: "rw" },
    ]);
  });

  it("lets executable-derived paths overlap one another (both read-only)", () => {
    expect(orderMountRequests([program("/opt/tool/bin"), program("/opt/tool")])).toEqual([
      program("/opt/tool"),
      program("/opt/tool/bin"),
    ]);
  });
});
