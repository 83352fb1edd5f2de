import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { createPrivateSocketDir } from "./create-private-socket-dir.js";

describe("createPrivateSocketDir", () => {
  it("names the roots it skipped, and why, when none in use can serve", () => {
    // A host where /dev/shm links out of the hidden places and the root in use cannot be made.
    const skipped = {
      root: "/dev/shm/paperclip-sandbox-sockets-0",
      realBase: "/var/shm",
      reason: "its base /dev/shm leads to /var/shm, outside /dev, /tmp, /run, which a sandbox may show",
    };
    const layout = { inUse: ["/proc/paperclip-absent/paperclip-sandbox-sockets-0"], skipped: [skipped] };
    let thrown: unknown;
    try {
      createPrivateSocketDir(layout);
    } catch (error) {
      thrown = error;
    }
    expect(PaperclipError.is(thrown, "ERR_SANDBOX_PROXY_SOCKET_DIR")).toBe(true);
    expect((thrown as PaperclipError).details).toMatchObject({
      candidates: layout.inUse,
      attempts: [expect.objectContaining({ baseDir: layout.inUse[0], code: "ENOENT" })],
      skippedRoots: [skipped],
      privateSocketRoot: true,
    });
  });
});
