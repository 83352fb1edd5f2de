import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import {
  parseLocalProcessFilesystemScope,
  parseLocalProcessFilesystemWorkspaceAccess,
  parseLocalProcessNetworkScope,
} from "./parse-scopes.js";

describe("scope parsers", () => {
  it("parses network scopes", () => {
    expect(parseLocalProcessNetworkScope("deny")).toBe("deny");
    expect(parseLocalProcessNetworkScope("allowlist")).toBe("allowlist");
    for (const empty of [null, undefined, ""]) expect(parseLocalProcessNetworkScope(empty)).toBeNull();
    expect(() => parseLocalProcessNetworkScope("public")).toThrow(
      'networkScope must be "deny" or "allowlist".',
    );
    caughtSync(() => parseLocalProcessNetworkScope("public"), "ERR_SANDBOX_NETWORK_SCOPE_INVALID");
  });

  it("parses filesystem scopes", () => {
    expect(parseLocalProcessFilesystemScope("workspace")).toBe("workspace");
    for (const empty of [null, undefined, ""]) expect(parseLocalProcessFilesystemScope(empty)).toBeNull();
    expect(() => parseLocalProcessFilesystemScope("workpace")).toThrow(
      'filesystemScope must be "workspace".',
    );
    caughtSync(() => parseLocalProcessFilesystemScope(1), "ERR_SANDBOX_FILESYSTEM_SCOPE_INVALID");
  });

  it("parses workspace access with rw as the default", () => {
    expect(parseLocalProcessFilesystemWorkspaceAccess("ro")).toBe("ro");
    expect(parseLocalProcessFilesystemWorkspaceAccess("rw")).toBe("rw");
    for (const empty of [null, undefined, ""])
      expect(parseLocalProcessFilesystemWorkspaceAccess(empty)).toBe("rw");
    expect(() => parseLocalProcessFilesystemWorkspaceAccess("write")).toThrow(
      'filesystemWorkspaceAccess must be "ro" or "rw".',
    );
    caughtSync(
      () => parseLocalProcessFilesystemWorkspaceAccess("write"),
      "ERR_SANDBOX_WORKSPACE_ACCESS_INVALID",
    );
  });
});
