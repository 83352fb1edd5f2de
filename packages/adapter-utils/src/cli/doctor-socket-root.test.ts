import { describe, expect, it } from "vitest";
import type { SocketRootLayout } from "../temp-dir/hidden-socket-roots.js";
import { checkPrivateSocketRoot } from "./doctor-socket-root.js";

// `/dev/null` is a file: preparing a root below it fails (ENOTDIR) and creates nothing.
const unusable = "/dev/null/paperclip-sandbox-sockets";
const skipped = {
  root: "/dev/shm/paperclip-sandbox-sockets",
  realBase: "/var/tmp/shm",
  reason: "its base /dev/shm leads to /var/tmp/shm, outside /dev, /tmp, /run, which a sandbox may show",
};

describe("checkPrivateSocketRoot", () => {
  it("fails naming each root skipped for where its base leads, and why", async () => {
    const layout: SocketRootLayout = { inUse: [unusable], skipped: [skipped] };
    const check = await checkPrivateSocketRoot(layout);
    expect(check.status).toBe("fail");
    expect(check.name).toBe("private socket root");
    expect(check.detail).toBe(
      "none of /dev/shm, /tmp, /run/user/<uid> is usable; skipped /dev/shm/paperclip-sandbox-sockets: its base /dev/shm leads to /var/tmp/shm, outside /dev, /tmp, /run, which a sandbox may show; the allowlist scope cannot start",
    );
    expect(check.error?.code).toBe("ERR_SANDBOX_PROXY_SOCKET_DIR");
    expect(check.error?.details?.skippedRoots).toEqual([skipped]);
  });

  it("fails without a skipped part where no root was skipped", async () => {
    const check = await checkPrivateSocketRoot({ inUse: [unusable], skipped: [] });
    expect(check.status).toBe("fail");
    expect(check.detail).toBe(
      "none of /dev/shm, /tmp, /run/user/<uid> is usable; the allowlist scope cannot start",
    );
  });
});
