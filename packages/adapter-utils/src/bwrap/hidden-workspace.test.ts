import { describe, expect, it } from "vitest";
import { assertWorkspaceShown, findHiddenWorkspace } from "./hidden-workspace.js";

const networkOnly = {
  masked: ["/tmp", "/run", "/home/me/.runtime"],
  socketRoots: ["/dev/shm/paperclip-sandbox-sockets-1000", "/tmp/paperclip-sandbox-sockets-1000"],
};
const workspaceScope = { masked: [], socketRoots: networkOnly.socketRoots };

describe("findHiddenWorkspace", () => {
  it("finds a workspace on, in or above the sandbox's own /proc and /dev, or /sys, in every scope", () => {
    for (const places of [networkOnly, workspaceScope]) {
      expect(findHiddenWorkspace("/", places)).toEqual({
        place: "/proc",
        relation: "holds",
        cause: "its own /proc",
      });
      expect(findHiddenWorkspace("/proc", places)?.relation).toBe("is");
      expect(findHiddenWorkspace("/dev", places)).toEqual({
        place: "/dev",
        relation: "is",
        cause: "its own /dev",
      });
      expect(findHiddenWorkspace("/dev/pts", places)?.relation).toBe("lies in");
      expect(findHiddenWorkspace("/sys", places)?.place).toBe("/sys");
      expect(findHiddenWorkspace("/sys/kernel", places)?.relation).toBe("lies in");
    }
  });

  it("finds a workspace on or in a private socket root, not one above it", () => {
    expect(findHiddenWorkspace("/tmp/paperclip-sandbox-sockets-1000/ws", workspaceScope)).toMatchObject({
      place: "/tmp/paperclip-sandbox-sockets-1000",
      relation: "lies in",
    });
    expect(findHiddenWorkspace("/tmp", workspaceScope)).toBeNull();
  });

  it("finds a network-only workspace that holds a masked directory, not one that is or lies in it", () => {
    expect(findHiddenWorkspace("/home/me", networkOnly)).toEqual({
      place: "/home/me/.runtime",
      relation: "holds",
      cause: "a private empty one",
    });
    expect(findHiddenWorkspace("/home/me", workspaceScope)).toBeNull();
    for (const shown of ["/tmp", "/run", "/run/user/1000", "/home/me/.runtime", "/dev/shm", "/dev/shm/ws"]) {
      expect(findHiddenWorkspace(shown, networkOnly)).toBeNull();
    }
  });
});

describe("assertWorkspaceShown", () => {
  it("judges the real path too, and names the workspace as given", () => {
    expect(() => assertWorkspaceShown({ path: "/home/me/ws", real: "/proc/self" }, workspaceScope)).toThrow(
      expect.objectContaining({
        code: "ERR_SANDBOX_WORKSPACE_HIDDEN",
        details: {
          workspaceDir: "/home/me/ws",
          realPath: "/proc/self",
          place: "/proc",
          cause: "its own /proc",
        },
      }),
    );
    expect(() => assertWorkspaceShown({ path: "/tmp", real: "/tmp" }, networkOnly)).not.toThrow();
  });
});
