import { describe, expect, it } from "vitest";
import { sortSocketRoots } from "./hidden-socket-roots.js";

const roots = ["/dev/shm/r", "/tmp/r", "/run/user/0/r"];

/** A host whose links are `links` (path -> real path of that directory). */
const realPathOn =
  (links: Record<string, string>) =>
  (candidate: string): string =>
    links[candidate] ?? candidate;

describe("sortSocketRoots", () => {
  it("uses every root where /dev/shm, /tmp and /run are what they say", () => {
    expect(sortSocketRoots(roots, realPathOn({}))).toEqual({ inUse: roots, skipped: [] });
  });

  it("uses a root whose base links into another hidden place (/dev/shm -> /run/shm)", () => {
    expect(sortSocketRoots(roots, realPathOn({ "/dev/shm": "/run/shm" }))).toEqual({
      inUse: roots,
      skipped: [],
    });
  });

  it("skips a root whose base links where the network-only scope shows the host tree, and says why", () => {
    expect(sortSocketRoots(roots, realPathOn({ "/dev/shm": "/var/shm" }))).toEqual({
      inUse: roots.slice(1),
      skipped: [
        {
          root: "/dev/shm/r",
          realBase: "/var/shm",
          reason: "its base /dev/shm leads to /var/shm, outside /dev, /tmp, /run, which a sandbox may show",
        },
      ],
    });
  });

  it("uses a /tmp root where /tmp itself links elsewhere: the scopes hide its real path", () => {
    const links = { "/tmp": "/var/tmp" };
    expect(sortSocketRoots(roots, realPathOn(links))).toEqual({ inUse: roots, skipped: [] });
  });
});
