import { describe, expect, it } from "vitest";
import { formatMode, type PrivateStats, privatePathProblem } from "./private-mode-policy.js";

function stats(type: "directory" | "file" | "symlink" | "fifo", mode: number, uid = 1000): PrivateStats {
  return {
    mode,
    uid,
    isDirectory: () => type === "directory",
    isFile: () => type === "file",
    isSymbolicLink: () => type === "symlink",
    isFIFO: () => type === "fifo",
    isSocket: () => false,
    isCharacterDevice: () => false,
    isBlockDevice: () => false,
  };
}

describe("privatePathProblem", () => {
  it("accepts owner-only modes", () => {
    for (const mode of [0o700, 0o500, 0o600, 0o400, 0o000]) {
      expect(privatePathProblem(stats("directory", 0o40000 | mode), "directory", 1000)).toBeUndefined();
    }
  });

  it("refuses any group or other bit", () => {
    for (const mode of [0o750, 0o755, 0o770, 0o707, 0o701, 0o710, 0o777]) {
      expect(privatePathProblem(stats("directory", mode), "directory", 1000)).toBe("group-or-other-access");
    }
  });

  it("refuses the wrong type before anything else", () => {
    expect(privatePathProblem(stats("symlink", 0o777), "directory", 1000)).toBe("wrong-type");
    expect(privatePathProblem(stats("file", 0o600), "directory", 1000)).toBe("wrong-type");
    expect(privatePathProblem(stats("directory", 0o700), "file", 1000)).toBe("wrong-type");
    expect(privatePathProblem(stats("fifo", 0o600), "file", 1000)).toBe("wrong-type");
  });

  it("checks the mode before the owner, so a shared directory reports the seed failure", () => {
    expect(privatePathProblem(stats("directory", 0o755, 0), "directory", 1000)).toBe("group-or-other-access");
    expect(privatePathProblem(stats("directory", 0o700, 0), "directory", 1000)).toBe("wrong-owner");
  });

  it("formats modes as chmod writes them", () => {
    expect(formatMode(0o40755)).toBe("0755");
    expect(formatMode(0o100600)).toBe("0600");
    expect(formatMode(0o41777)).toBe("1777");
  });
});
