import { describe, expect, it } from "vitest";
import { rootsInHiddenPlaces } from "./hidden-socket-roots.js";

const roots = ["/dev/shm/r", "/tmp/r", "/run/user/0/r"];

/** A host whose links are `links` (path -> real path of that directory). */
const realPathOn =
  (links: Record<string, string>) =>
  (candidate: string): string =>
    links[candidate] ?? candidate;

describe("rootsInHiddenPlaces", () => {
  it("keeps every root where /dev/shm, /tmp and /run are what they say", () => {
    expect(rootsInHiddenPlaces(roots, realPathOn({}))).toEqual(roots);
  });

  it("keeps a root whose base links into another hidden place (/dev/shm -> /run/shm)", () => {
    expect(rootsInHiddenPlaces(roots, realPathOn({ "/dev/shm": "/run/shm" }))).toEqual(roots);
  });

  it("drops a root whose base links where the network-only scope shows the host tree", () => {
    expect(rootsInHiddenPlaces(roots, realPathOn({ "/dev/shm": "/var/shm" }))).toEqual(roots.slice(1));
  });

  it("keeps a /tmp root where /tmp itself links elsewhere: the scopes hide its real path", () => {
    const links = { "/tmp": "/var/tmp" };
    expect(rootsInHiddenPlaces(roots, realPathOn(links))).toEqual(roots);
  });
});
