import { describe, expect, it } from "vitest";
import { scopeArgs } from "../spawn-target/scope-args.js";
import type { HostLayout, HostPathKind } from "./host-layout.js";
import { maskMountPoints } from "./mask-mount-points.js";

const dir: HostPathKind = { kind: "directory" };
const RUN = "/dev/shm/paperclip-sandbox-sockets-0/run-1";

/** The deny scope's argv and mask directories for requests over a layout where each path is a directory. */
function denyScope(requests: { path: string; access: "rw" | "ro" }[]) {
  const paths = ["/tmp", "/run", "/proc/sys", "/sys", "/etc", ...requests.map((request) => request.path)];
  const layout: HostLayout = new Map(paths.map((place) => [place, dir]));
  return scopeArgs({
    parsed: { filesystemScope: null, networkScope: "deny" },
    layout,
    mounts: { requests, aliases: [], masks: ["/tmp", "/run"], socketRoots: [] },
    runDir: RUN,
    proxyMount: null,
    runnerIsRoot: true,
    initMask: "/dev/shm/paperclip-sandbox-sockets-0/native-1",
  });
}

describe("maskMountPoints", () => {
  it("names the host path of a workspace bound back right under /tmp, in the mask bound over /tmp", () => {
    const scope = denyScope([{ path: "/tmp/ws", access: "rw" }]);
    expect(scope.args.join(" ")).toContain(`--bind ${RUN}/0 /tmp`);
    expect(maskMountPoints(scope.args, scope.maskDirs)).toEqual([`${RUN}/0/ws`]);
  });

  it("names only the entry right in a mask for a deeper path: below it, a program could swap a directory for a link", () => {
    const scope = denyScope([
      { path: "/tmp/a/b/ws", access: "rw" },
      { path: "/run/cfg", access: "ro" },
    ]);
    expect(maskMountPoints(scope.args, scope.maskDirs).sort()).toEqual([`${RUN}/1/cfg`]);
  });

  it("names nothing where no path is bound back, nor for binds of directories that are not masks", () => {
    const scope = denyScope([{ path: "/srv/ws", access: "rw" }]);
    expect(maskMountPoints(scope.args, scope.maskDirs)).toEqual([]);
    expect(maskMountPoints(["--bind", "/x", "/tmp", "--bind", "/y", "/tmp/ws"], ["/z"])).toEqual([]);
  });

  it("reads the argv up to the program: an argument after `--` is not a mount", () => {
    expect(
      maskMountPoints(["--bind", "/m/0", "/tmp", "--", "/bin/sh", "--bind", "/a", "/tmp/ws"], ["/m/0"]),
    ).toEqual([]);
  });
});
