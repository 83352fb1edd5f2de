import { describe, expect, it } from "vitest";
import { kernelInterfaceMounts, kernelMountsShownWritable } from "./kernel-interface-mounts.js";

const line = (id: number, point: string, fsType: string) =>
  `${id} 1 0:${id} / ${point} rw,nosuid,nodev,noexec,relatime shared:${id} - ${fsType} ${fsType} rw`;

describe("kernelInterfaceMounts", () => {
  it("lists kernel interfaces outside the sandbox's own trees, escaped paths read back", () => {
    const mountinfo = [
      line(20, "/", "ext4"),
      line(21, "/proc", "proc"),
      line(22, "/sys", "sysfs"),
      line(23, "/sys/fs/cgroup", "cgroup2"),
      line(24, "/proc/sys/fs/binfmt_misc", "binfmt_misc"),
      line(25, "/dev/mqueue", "mqueue"),
      line(26, "/srv/chroot/bookworm/proc", "proc"),
      line(27, "/srv/chroot/bookworm/sys", "sysfs"),
      line(28, "/var/lib/build\\040root/proc", "proc"),
      line(29, "/srv/chroot/bookworm/proc", "proc"),
      line(30, "/home/u/data", "ext4"),
    ].join("\n");
    expect(kernelInterfaceMounts(mountinfo)).toEqual([
      "/srv/chroot/bookworm/proc",
      "/srv/chroot/bookworm/sys",
      "/var/lib/build root/proc",
    ]);
  });
});

describe("kernelMountsShownWritable", () => {
  const mounts = ["/srv/chroot/proc", "/tmp/build/proc", "/opt/other/sys"];

  it("finds each below a writable bind, at the place the bind shows it", () => {
    expect(
      kernelMountsShownWritable(mounts, [
        { source: "/srv/chroot", dest: "/srv/chroot" },
        { source: "/opt/other", dest: "/alias" },
      ]),
    ).toEqual([
      { hostPath: "/srv/chroot/proc", dest: "/srv/chroot/proc" },
      { hostPath: "/opt/other/sys", dest: "/alias/sys" },
    ]);
  });

  it("skips what a later mount covers, unless a bind shows it again", () => {
    const hostTree = { source: "/", dest: "/", covered: ["/tmp", "/run"] };
    expect(kernelMountsShownWritable(mounts, [hostTree])).toEqual([
      { hostPath: "/srv/chroot/proc", dest: "/srv/chroot/proc" },
      { hostPath: "/opt/other/sys", dest: "/opt/other/sys" },
    ]);
    expect(
      kernelMountsShownWritable(mounts, [hostTree, { source: "/tmp/build", dest: "/tmp/build" }]),
    ).toContainEqual({
      hostPath: "/tmp/build/proc",
      dest: "/tmp/build/proc",
    });
  });
});
