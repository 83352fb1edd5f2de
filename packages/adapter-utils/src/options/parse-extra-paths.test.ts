import { PaperclipError } from "@paperclipai/errors";
import { caughtSync as thrown } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { parseLocalProcessSandboxExtraPaths } from "./parse-extra-paths.js";

describe("parseLocalProcessSandboxExtraPaths", () => {
  it("reads strings as read-only and objects with their access", () => {
    expect(
      parseLocalProcessSandboxExtraPaths([
        " /opt/cache/ ",
        { path: "/var/lib/tool", access: "rw" },
        { path: "/srv" },
      ]),
    ).toEqual([
      { path: "/opt/cache", access: "ro" },
      { path: "/var/lib/tool", access: "rw" },
      { path: "/srv", access: "ro" },
    ]);
  });

  it("gives [] for anything but an array", () => {
    expect(parseLocalProcessSandboxExtraPaths(undefined)).toEqual([]);
    expect(parseLocalProcessSandboxExtraPaths("/opt")).toEqual([]);
  });

  it("rejects entries that are neither strings nor objects", () => {
    const error = thrown(() => parseLocalProcessSandboxExtraPaths(["/ok", 7]));
    expect(PaperclipError.is(error, "ERR_SANDBOX_EXTRA_PATH_INVALID")).toBe(true);
    expect((error as Error).message).toBe(
      "filesystemExtraPaths[1] must be an absolute path or { path, access } object.",
    );
    expect(() => parseLocalProcessSandboxExtraPaths([["/x"]])).toThrow(
      "filesystemExtraPaths[0] must be an absolute path",
    );
  });

  it("rejects unknown access values and missing paths", () => {
    const error = thrown(() => parseLocalProcessSandboxExtraPaths([{ path: "/x", access: "write" }]));
    expect(PaperclipError.is(error, "ERR_SANDBOX_EXTRA_PATH_ACCESS")).toBe(true);
    expect((error as Error).message).toBe(
      'filesystemExtraPaths[0] must use access "ro" or "rw" and an absolute path.',
    );
    expect(() => parseLocalProcessSandboxExtraPaths([{ access: "ro" }])).toThrow(
      'must use access "ro" or "rw"',
    );
  });

  it("rejects relative paths with the entry's label", () => {
    const error = thrown(() => parseLocalProcessSandboxExtraPaths(["relative"]));
    expect(PaperclipError.is(error, "ERR_SANDBOX_PATH_NOT_ABSOLUTE")).toBe(true);
    expect((error as Error).message).toBe("filesystemExtraPaths[0] must be an absolute path.");
    expect(() => parseLocalProcessSandboxExtraPaths([{ path: "rel" }])).toThrow(
      "filesystemExtraPaths[0].path must be an absolute path.",
    );
  });
});
