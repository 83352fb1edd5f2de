import { describe, expect, it } from "vitest";
import { mountForbidsExec } from "./mount-forbids-exec.js";

const mountinfo = [
  "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw",
  "24 27 0:6 / /dev rw,nosuid,relatime - devtmpfs devtmpfs rw",
  "25 24 0:23 / /dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw",
  "30 25 0:27 / /dev/shm rw,nosuid,nodev,relatime - tmpfs tmpfs rw",
  "31 27 0:28 / /mnt/with\\040space rw,noexec - tmpfs tmpfs rw",
  "32 27 0:29 / /tmp rw,noexec - tmpfs tmpfs rw",
].join("\n");

describe("mountForbidsExec", () => {
  it("judges a path by the deepest mount above it, the last one stacked there winning", () => {
    expect(mountForbidsExec(mountinfo, "/dev/shm/paperclip-sandbox-sockets-0")).toBe(false);
    expect(mountForbidsExec(mountinfo, "/tmp/paperclip-sandbox-sockets-0")).toBe(true);
    expect(mountForbidsExec(mountinfo, "/tmpfoo/x")).toBe(false);
    expect(mountForbidsExec(mountinfo, "/dev/null")).toBe(false);
  });

  it("reads escaped mount points, and knows nothing without a mount table", () => {
    expect(mountForbidsExec(mountinfo, "/mnt/with space/root")).toBe(true);
    expect(mountForbidsExec("", "/tmp/x")).toBe(false);
  });
});
