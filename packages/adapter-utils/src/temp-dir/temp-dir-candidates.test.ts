import { describe, expect, it } from "vitest";
import {
  defaultProxyTempDirCandidates,
  socketPathBytesUnder,
  uniqueCandidates,
} from "./temp-dir-candidates.js";

describe("proxy temp dir candidates", () => {
  it("tries /tmp, then os.tmpdir(), then $XDG_RUNTIME_DIR, without duplicates", () => {
    expect(defaultProxyTempDirCandidates("/var/tmp", { XDG_RUNTIME_DIR: "/run/user/1000" })).toEqual([
      "/tmp",
      "/var/tmp",
      "/run/user/1000",
    ]);
    expect(defaultProxyTempDirCandidates("/tmp/", {})).toEqual(["/tmp"]);
  });

  it("drops relative and empty candidates", () => {
    expect(uniqueCandidates(["", "rel/dir", "/a", "/a/"])).toEqual(["/a"]);
    expect(defaultProxyTempDirCandidates("/tmp", { XDG_RUNTIME_DIR: "run" })).toEqual(["/tmp"]);
  });

  it("measures the socket path a base directory gives", () => {
    // "/tmp/" + "paperclip-network-sandbox-XXXXXX" + "/proxy.sock"
    expect(socketPathBytesUnder("/tmp")).toBe(5 + 32 + 11);
  });
});
