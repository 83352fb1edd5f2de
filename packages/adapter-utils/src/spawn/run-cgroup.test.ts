import { describe, expect, it } from "vitest";
import { pidsHierarchyCandidates, runCgroupName, runCgroupOwner } from "./run-cgroup.js";

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

describe("run cgroup names", () => {
  it("carry the owner's pid for the sweep, whichever copy of the module made them", () => {
    expect(runCgroupName(4242, "0a1b2c3d", 7)).toBe("paperclip-sandbox-4242-0a1b2c3d-7");
    expect(runCgroupOwner(runCgroupName(4242, "0a1b2c3d", 7))).toBe(4242);
    // An earlier version's name, without the token, is still swept once its owner is gone.
    expect(runCgroupOwner("paperclip-sandbox-4242-7")).toBe(4242);
  });

  it("differ between two copies of the module at the same pid and counter", () => {
    expect(runCgroupName(4242, "0a1b2c3d", 1)).not.toBe(runCgroupName(4242, "ffee0011", 1));
  });

  it("are not confused with other cgroups", () => {
    for (const name of [
      "paperclip-sandbox-",
      "paperclip-sandbox-0-1",
      "paperclip-sandbox-x-1",
      "other-4242-1",
      "paperclip-sandbox-4242-zz-1",
    ]) {
      expect(runCgroupOwner(name), name).toBeNull();
    }
  });
});
