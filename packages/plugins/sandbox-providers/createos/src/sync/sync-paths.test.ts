import { describe, expect, it } from "vitest";
import { checkArchiveEntry, hostEntryMode } from "./archive-entry.js";
import { compileExcludes } from "./exclude-glob.js";
import { confineSandboxEntry, confineSandboxPath, hostPath } from "./sync-paths.js";

describe("sandbox path confinement", () => {
  it("accepts paths inside the workspace", () => {
    expect(confineSandboxPath("/paperclip-workspace", "f", "op")).toBe("/paperclip-workspace");
    expect(confineSandboxPath("/paperclip-workspace/a/./b/", "f", "op")).toBe("/paperclip-workspace/a/b");
    expect(confineSandboxEntry("/paperclip-workspace/a/../b", "f", "op")).toBe("/paperclip-workspace/b");
  });
  it.each([
    "relative/x",
    "/etc/passwd",
    "/paperclip-workspace/../etc",
    "/paperclip-workspacex/y",
    "/paperclip-workspace/\0",
    3,
  ])("rejects %s", (path) => {
    expect(() => confineSandboxPath(path, "targetPath", "op1")).toThrow(
      expect.objectContaining({
        code: "ERR_CREATEOS_SYNC_PATH",
        details: { field: "targetPath", operationId: "op1" },
      }),
    );
  });
  it("does not let an entry replace the workspace root itself", () => {
    expect(() => confineSandboxEntry("/paperclip-workspace/", "f", "op")).toThrow(
      "CreateOS sync path is not an absolute path inside the sandbox workspace.",
    );
  });
  it("needs absolute host paths", () => {
    expect(hostPath("/tmp/a/../b", "f", "op")).toBe("/tmp/b");
    expect(() => hostPath("tmp/x", "f", "op")).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_SYNC_PATH" }),
    );
  });
});

describe("exclude globs", () => {
  const excluded = compileExcludes(["node_modules", "*.log", "build/out", "docs/**/*.tmp", ".git/"]);
  it.each([
    ["node_modules", true],
    ["a/node_modules/x.js", true],
    ["x.log", true],
    ["deep/y.log", true],
    ["build/out", true],
    ["build/out/file", true],
    ["other/build/out", false],
    ["docs/a/b/c.tmp", true],
    ["docs/c.tmp", true],
    [".git/HEAD", true],
    ["src/index.ts", false],
    ["logs.txt", false],
    ["./", false],
  ])("%s excluded: %s", (path, expected) => {
    expect(excluded(path)).toBe(expected);
  });
});

describe("archive entries", () => {
  it("accepts files, directories and links that stay inside", () => {
    expect(checkArchiveEntry({ path: "./a/b.txt", type: "File" })).toBe("a/b.txt");
    expect(checkArchiveEntry({ path: "a/", type: "Directory" })).toBe("a/");
    expect(checkArchiveEntry({ path: "a/link", type: "SymbolicLink", linkpath: "../b.txt" })).toBe("a/link");
    expect(checkArchiveEntry({ path: "hard", type: "Link", linkpath: "a/b.txt" })).toBe("hard");
  });
  it.each([
    { path: "/etc/passwd", type: "File" },
    { path: "../x", type: "File" },
    { path: "a/../../x", type: "File" },
    { path: "a\\..\\x", type: "File" },
    { path: "C:/x", type: "File" },
    { path: "link", type: "SymbolicLink", linkpath: "/etc" },
    { path: "a/link", type: "SymbolicLink", linkpath: "../../etc" },
    { path: "link", type: "SymbolicLink", linkpath: "" },
    { path: "hard", type: "Link", linkpath: "../outside" },
    { path: "hard", type: "Link", linkpath: "/etc/passwd" },
    { path: "dev", type: "CharacterDevice" },
    { path: "fifo", type: "FIFO" },
  ])("rejects %j", (header) => {
    expect(() => checkArchiveEntry(header)).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY" }),
    );
  });
});

describe("hostEntryMode", () => {
  it("drops the set-user-ID and set-group-ID bits and the write bit for others, and keeps the rest", () => {
    expect(hostEntryMode(0o6755).toString(8)).toBe("755");
    expect(hostEntryMode(0o2775).toString(8)).toBe("775");
    expect(hostEntryMode(0o1777).toString(8)).toBe("1775");
    expect(hostEntryMode(0o666).toString(8)).toBe("664");
    expect(hostEntryMode(0o640).toString(8)).toBe("640");
  });
});
