import { caughtSync as caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import {
  assertAliasesStayInWorkspace,
  validatePathAliases,
  validateWorkspaceScope,
} from "./validate-workspace-scope.js";

describe("validateWorkspaceScope", () => {
  it("accepts a cwd inside the workspace and synchronized or restored writable paths", () => {
    expect(() =>
      validateWorkspaceScope("/ws", "/ws/sub", {
        extraPaths: [
          { path: "/ws/cache", access: "rw" },
          { path: "/home/u/.tool/state", access: "rw" },
          { path: "/opt/ro", access: "ro" },
        ],
        outboundRestorePaths: ["/home/u/.tool"],
      }),
    ).not.toThrow();
  });

  it("rejects a cwd outside the workspace, including a sibling with a common prefix", () => {
    const error = caught(() => validateWorkspaceScope("/ws", "/ws-other", {}));
    expect(error.code).toBe("ERR_SANDBOX_CWD_OUTSIDE_WORKSPACE");
    expect(error.message).toBe('Sandbox cwd "/ws-other" must be inside workspaceDir "/ws".');
  });

  it("rejects writable paths outside the workspace without a restore mapping", () => {
    const error = caught(() =>
      validateWorkspaceScope("/ws", "/ws", { extraPaths: [{ path: "/outside", access: "rw" }] }),
    );
    expect(error.code).toBe("ERR_SANDBOX_WRITABLE_PATH_UNMAPPED");
    expect(error.message).toBe(
      'Writable sandbox path "/outside" is outside synchronized workspace "/ws" and has no outbound restore mapping.',
    );
  });
});

describe("validatePathAliases", () => {
  it("resolves aliases into the workspace", () => {
    expect(validatePathAliases("/ws", [{ path: "/app/", target: "/ws/src" }], () => true)).toEqual([
      { path: "/app", target: "/ws/src" },
    ]);
  });

  it("rejects an alias whose target is outside the workspace", () => {
    const error = caught(() => validatePathAliases("/ws", [{ path: "/app", target: "/etc" }], () => true));
    expect(error.code).toBe("ERR_SANDBOX_ALIAS_OUTSIDE_WORKSPACE");
    expect(error.message).toBe('Sandbox path alias "/app" must target the synchronized workspace "/ws".');
  });

  it("rejects an alias whose target does not exist", () => {
    const error = caught(() =>
      validatePathAliases("/ws", [{ path: "/app", target: "/ws/missing" }], () => false),
    );
    expect(error.code).toBe("ERR_SANDBOX_ALIAS_TARGET_MISSING");
    expect(error.message).toBe('Sandbox path alias target "/ws/missing" does not exist.');
  });
});

describe("assertAliasesStayInWorkspace", () => {
  const workspace = { path: "/home/u/ws", real: "/srv/ws" };

  it("accepts targets whose real path stays in the workspace's, links included", () => {
    expect(() =>
      assertAliasesStayInWorkspace(workspace, [
        { path: "/app", target: "/home/u/ws/src", realTarget: "/srv/ws/src" },
        { path: "/lib", target: "/home/u/ws/link-to-lib", realTarget: "/srv/ws/vendor/lib" },
      ]),
    ).not.toThrow();
  });

  // A target spelt inside the workspace that is a link out would be bound writable where it leads.
  it("rejects a target that is a link out of the workspace", () => {
    const error = caught(() =>
      assertAliasesStayInWorkspace(workspace, [
        { path: "/app", target: "/home/u/ws/cache", realTarget: "/home/u/.ssh" },
      ]),
    );
    expect(error.code).toBe("ERR_SANDBOX_ALIAS_OUTSIDE_WORKSPACE");
    expect(error.message).toBe(
      'Sandbox path alias "/app" targets "/home/u/ws/cache", which resolves through a symlink to "/home/u/.ssh", outside the synchronized workspace "/home/u/ws".',
    );
    expect(error.details).toMatchObject({ target: "/home/u/ws/cache", realTarget: "/home/u/.ssh" });
  });
});
