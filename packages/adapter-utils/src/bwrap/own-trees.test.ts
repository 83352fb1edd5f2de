import { describe, expect, it } from "vitest";
import { inKernelTree, ownTreesRestored, procMaskArgs } from "./own-trees.js";

const options = { procSys: true, initMask: null, tmpfsSize: null };

describe("inKernelTree", () => {
  it("is true on or in /proc or /sys, as named or by its source", () => {
    for (const path of ["/proc", "/proc/1", "/sys", "/sys/kernel"])
      expect(inKernelTree({ path, access: "ro" })).toBe(true);
    expect(inKernelTree({ path: "/ws/p", source: "/proc/self", access: "ro" })).toBe(true);
  });

  it("is false above or beside them", () => {
    for (const path of ["/", "/dev", "/process", "/ws"])
      expect(inKernelTree({ path, access: "ro" })).toBe(false);
  });
});

describe("ownTreesRestored", () => {
  it("puts the sandbox's own /proc (read-only /proc/sys, /proc/1 masked), /dev and an empty /sys back over a bind of /", () => {
    expect(ownTreesRestored("/", options)).toEqual([
      ...["--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys"],
      ...["--tmpfs", "/proc/1", "--remount-ro", "/proc/1"],
      ...["--dev", "/dev"],
      ...["--tmpfs", "/sys", "--remount-ro", "/sys"],
    ]);
  });

  it("shows the exec shim's directory at /proc/1 and caps /dev/shm as the start does", () => {
    const args = ownTreesRestored("/", { procSys: false, initMask: "/shm/shim", tmpfsSize: 4096 });
    expect(args.join(" ")).toBe(
      "--proc /proc --ro-bind /shm/shim /proc/1 --dev /dev --size 4096 --tmpfs /dev/shm --tmpfs /sys --remount-ro /sys",
    );
  });

  it("leaves a bind of /dev itself, and binds beside the trees, as they are", () => {
    for (const dest of ["/dev", "/usr", "/ws", "/dev/shm"])
      expect(ownTreesRestored(dest, options)).toEqual([]);
  });
});

describe("procMaskArgs", () => {
  it("shows /proc/sys read-only where the host has it and masks /proc/1", () => {
    expect(procMaskArgs({ procSys: true, initMask: null })).toEqual([
      ...["--ro-bind", "/proc/sys", "/proc/sys", "--tmpfs", "/proc/1", "--remount-ro", "/proc/1"],
    ]);
    expect(procMaskArgs({ procSys: false, initMask: "/shm/shim" })).toEqual([
      "--ro-bind",
      "/shm/shim",
      "/proc/1",
    ]);
  });
});
