import { describe, expect, it } from "vitest";
import { findSymlinkedRootExposure } from "./symlinked-root-exposure.js";

const ROOTS = ["/dev/shm/r-1", "/tmp/r-1", "/run/user/1/r-1"];

describe("findSymlinkedRootExposure", () => {
  it("passes paths that are their own real path, even ancestors of a root (the builders mask those)", () => {
    expect(
      findSymlinkedRootExposure(
        [
          { requested: "/", real: "/" },
          { requested: "/tmp", real: "/tmp" },
        ],
        ROOTS,
      ),
    ).toBeNull();
  });

  it("passes links that resolve beside every root", () => {
    expect(
      findSymlinkedRootExposure(
        [
          { requested: "/home/u/ws", real: "/srv/ws" },
          { requested: "/home/u/tmpws", real: "/tmp/ws" },
          { requested: "/home/u/runtime", real: "/run/user/2" },
        ],
        ROOTS,
      ),
    ).toBeNull();
  });

  it.each([
    ["/", "/dev/shm/r-1"],
    ["/dev", "/dev/shm/r-1"],
    ["/dev/shm", "/dev/shm/r-1"],
    ["/tmp", "/tmp/r-1"],
    ["/run", "/run/user/1/r-1"],
    ["/run/user/1", "/run/user/1/r-1"],
    ["/tmp/r-1", "/tmp/r-1"],
    ["/tmp/r-1/run-a", "/tmp/r-1"],
  ])("refuses a link that resolves to %s", (real, root) => {
    expect(findSymlinkedRootExposure([{ requested: "/home/u/link", real }], ROOTS)).toEqual({
      requested: "/home/u/link",
      real,
      root,
    });
  });

  it("passes a named place that links to another (/var/run -> /run), not a link elsewhere nor to another place", () => {
    const named = ["/tmp", "/run", "/var/run"];
    expect(findSymlinkedRootExposure([{ requested: "/var/run", real: "/run" }], ROOTS, named)).toBeNull();
    expect(findSymlinkedRootExposure([{ requested: "/home/u/link", real: "/run" }], ROOTS, named)?.root).toBe(
      "/run/user/1/r-1",
    );
    expect(findSymlinkedRootExposure([{ requested: "/var/run", real: "/" }], ROOTS, named)?.real).toBe("/");
  });

  it("names the first offending source", () => {
    const found = findSymlinkedRootExposure(
      [
        { requested: "/a", real: "/srv/a" },
        { requested: "/b", real: "/tmp" },
        { requested: "/c", real: "/" },
      ],
      ROOTS,
    );
    expect(found?.requested).toBe("/b");
  });
});
