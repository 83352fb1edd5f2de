import { describe, expect, it } from "vitest";
import { pidsHierarchyCandidates } from "./run-cgroup.js";

const V1_MOUNTINFO = [
  "30 25 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
  "33 25 0:29 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
  "36 25 0:32 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
].join("\n");

describe("pidsHierarchyCandidates", () => {
  it("finds cgroup v1's pids hierarchy at this process's own cgroup, and v2 after it", () => {
    const cgroups = "8:pids:/runner\n4:memory:/x\n0::/unified-path\n";
    expect(pidsHierarchyCandidates(V1_MOUNTINFO, cgroups)).toEqual([
      { version: 1, parent: "/sys/fs/cgroup/pids/runner" },
      { version: 2, parent: "/sys/fs/cgroup/unified/unified-path" },
    ]);
  });

  it("finds a pure cgroup v2 host's own cgroup", () => {
    const mountinfo = "29 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate";
    expect(pidsHierarchyCandidates(mountinfo, "0::/user.slice/session-1.scope\n")).toEqual([
      { version: 2, parent: "/sys/fs/cgroup/user.slice/session-1.scope" },
    ]);
  });

  it("finds nothing without a cgroup mount", () => {
    expect(pidsHierarchyCandidates("22 1 8:1 / / rw - ext4 /dev/sda1 rw", "0::/\n")).toEqual([]);
  });
});
