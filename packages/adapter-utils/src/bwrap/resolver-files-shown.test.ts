import { describe, expect, it } from "vitest";
import type { HostLayout, HostPathKind } from "./host-layout.js";
import { writableResolverFiles } from "./resolver-files-shown.js";

const layout: HostLayout = new Map<string, HostPathKind>([
  ["/etc/hosts", { kind: "file" }],
  [
    "/etc/resolv.conf",
    { kind: "symlink", target: "../run/resolvconf/resolv.conf", resolved: "/run/resolvconf/resolv.conf" },
  ],
]);

describe("writableResolverFiles", () => {
  it("finds each resolver file a writable bind shows, at its place in the sandbox", () => {
    expect(
      writableResolverFiles(layout, [
        { source: "/run", dest: "/var/run", access: "rw" },
        { source: "/etc", dest: "/etc", access: "rw" },
      ]),
    ).toEqual([
      { hostPath: "/run/resolvconf/resolv.conf", dest: "/var/run/resolvconf/resolv.conf" },
      { hostPath: "/etc/hosts", dest: "/etc/hosts" },
    ]);
  });

  it("passes read-only binds and binds beside the files", () => {
    expect(
      writableResolverFiles(layout, [
        { source: "/run", dest: "/run", access: "ro" },
        { source: "/run/user/1000", dest: "/run/user/1000", access: "rw" },
      ]),
    ).toEqual([]);
  });
});
