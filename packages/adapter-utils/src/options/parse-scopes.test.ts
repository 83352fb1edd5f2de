import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import {
  parseLocalProcessFilesystemScope,
  parseLocalProcessFilesystemWorkspaceAccess,
  parseLocalProcessNetworkScope,
} from "./parse-scopes.js";

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return PaperclipError.is(error) ? error.code : "not-coded";
  }
  return undefined;
}

describe("scope parsers", () => {
  it("parses network scopes", () => {
    expect(parseLocalProcessNetworkScope("deny")).toBe("deny");
    expect(parseLocalProcessNetworkScope("allowlist")).toBe("allowlist");
    for (const empty of [null, undefined, ""]) expect(parseLocalProcessNetworkScope(empty)).toBeNull();
    expect(() => parseLocalProcessNetworkScope("public")).toThrow(
      'networkScope must be "deny" or "allowlist".',
    );
    expect(codeOf(() => parseLocalProcessNetworkScope("public"))).toBe("ERR_SANDBOX_NETWORK_SCOPE_INVALID");
  });

  it("parses filesystem scopes", () => {
    expect(parseLocalProcessFilesystemScope("workspace")).toBe("workspace");
    for (const empty of [null, undefined, ""]) expect(parseLocalProcessFilesystemScope(empty)).toBeNull();
    expect(() => parseLocalProcessFilesystemScope("workpace")).toThrow(
      'filesystemScope must be "workspace".',
    );
    expect(codeOf(() => parseLocalProcessFilesystemScope(1))).toBe("ERR_SANDBOX_FILESYSTEM_SCOPE_INVALID");
  });

  it("parses workspace access with rw as the default", () => {
    expect(parseLocalProcessFilesystemWorkspaceAccess("ro")).toBe("ro");
    expect(parseLocalProcessFilesystemWorkspaceAccess("rw")).toBe("rw");
    for (const empty of [null, undefined, ""])
      expect(parseLocalProcessFilesystemWorkspaceAccess(empty)).toBe("rw");
    expect(() => parseLocalProcessFilesystemWorkspaceAccess("write")).toThrow(
      'filesystemWorkspaceAccess must be "ro" or "rw".',
    );
    expect(codeOf(() => parseLocalProcessFilesystemWorkspaceAccess("write"))).toBe(
      "ERR_SANDBOX_WORKSPACE_ACCESS_INVALID",
    );
  });
});
