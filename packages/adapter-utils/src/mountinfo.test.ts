import { describe, expect, it } from "vitest";
import { parseMountinfo } from "./mountinfo.js";

describe("parseMountinfo", () => {
  it("reads the mount point (unescaped), both option lists and the type, past optional fields", () => {
    const text = [
      "31 27 0:28 / /mnt/with\\040space rw,noexec shared:5 master:1 - tmpfs tmpfs rw,size=10k",
      "33 25 0:29 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
    ].join("\n");
    expect(parseMountinfo(text)).toEqual([
      {
        mountPoint: "/mnt/with space",
        mountOptions: ["rw", "noexec"],
        fsType: "tmpfs",
        superOptions: ["rw", "size=10k"],
      },
      {
        mountPoint: "/sys/fs/cgroup/pids",
        mountOptions: ["rw", "relatime"],
        fsType: "cgroup",
        superOptions: ["rw", "pids"],
      },
    ]);
  });

  it("leaves out lines without the separator or the fixed fields", () => {
    expect(parseMountinfo("\ngarbage\n1 2 3 - tmpfs tmpfs rw\n")).toEqual([]);
  });
});
