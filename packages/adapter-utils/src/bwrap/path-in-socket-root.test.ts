import { describe, expect, it } from "vitest";
import { assertNoPathInSocketRoot, findPathInSocketRoot } from "./path-in-socket-root.js";

const ROOTS = ["/dev/shm/r-1", "/run/shm/r-1", "/tmp/r-1"];

describe("findPathInSocketRoot", () => {
  it("finds a path on or in a root, as named or by its real path, in any spelling", () => {
    const at = (path: string, real = path) => findPathInSocketRoot([{ option: "cwd", path, real }], ROOTS);
    expect(at("/tmp/r-1")?.socketRoot).toBe("/tmp/r-1");
    expect(at("/run/shm/r-1/ws")?.socketRoot).toBe("/run/shm/r-1");
    expect(at("/home/u/link", "/dev/shm/r-1/x")?.socketRoot).toBe("/dev/shm/r-1");
  });

  it("passes a path beside or above every root", () => {
    const paths = ["/tmp", "/dev/shm", "/tmp/r-10", "/"].map((path) => ({
      option: "extraPaths" as const,
      path,
      real: path,
    }));
    expect(findPathInSocketRoot(paths, ROOTS)).toBeNull();
  });
});

describe("assertNoPathInSocketRoot", () => {
  it("names the option, the path as given and the root", () => {
    const named = { option: "managedPaths" as const, path: "/home/u/cache", real: "/tmp/r-1/cache" };
    expect(() => assertNoPathInSocketRoot([named], ROOTS)).toThrow(
      expect.objectContaining({
        code: "ERR_SANDBOX_PATH_IN_SOCKET_ROOT",
        details: {
          option: "managedPaths",
          path: "/home/u/cache",
          realPath: "/tmp/r-1/cache",
          socketRoot: "/tmp/r-1",
        },
      }),
    );
  });
});
