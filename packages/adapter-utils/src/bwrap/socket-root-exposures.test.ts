import { describe, expect, it } from "vitest";
import { socketRootExposures } from "./socket-root-exposures.js";

const ROOTS = ["/dev/shm/r-1", "/tmp/r-1", "/run/user/1/r-1"];
const same = (source: string) => ({ source, dest: source });

describe("socketRootExposures", () => {
  it("finds nothing for binds beside the roots", () => {
    expect(socketRootExposures([same("/usr"), same("/tmp/ws"), same("/run/user/2")], ROOTS)).toEqual([]);
  });

  it("finds a root below a bound ancestor, at its place under the destination", () => {
    expect(socketRootExposures([same("/tmp")], ROOTS)).toEqual([{ hostPath: "/tmp/r-1", dest: "/tmp/r-1" }]);
    expect(socketRootExposures([{ source: "/run/user/1", dest: "/xdg" }], ROOTS)).toEqual([
      { hostPath: "/run/user/1/r-1", dest: "/xdg/r-1" },
    ]);
  });

  it("finds every root below /", () => {
    expect(socketRootExposures([same("/")], ROOTS).map((exposure) => exposure.dest)).toEqual(ROOTS);
  });

  it("finds a root bound itself, or a path inside one, at the destination", () => {
    expect(socketRootExposures([same("/tmp/r-1")], ROOTS)).toEqual([
      { hostPath: "/tmp/r-1", dest: "/tmp/r-1" },
    ]);
    expect(socketRootExposures([{ source: "/dev/shm/r-1/run-a", dest: "/x" }], ROOTS)).toEqual([
      { hostPath: "/dev/shm/r-1/run-a", dest: "/x" },
    ]);
  });

  it("does not mistake a sibling with a common prefix for a root", () => {
    expect(socketRootExposures([same("/tmp/r-10"), same("/tmp/r")], ROOTS)).toEqual([]);
  });

  it("keeps one mask per place, the outermost", () => {
    expect(socketRootExposures([same("/tmp"), same("/tmp/r-1"), same("/tmp/r-1/run-a")], ROOTS)).toEqual([
      { hostPath: "/tmp/r-1", dest: "/tmp/r-1" },
    ]);
  });
});
