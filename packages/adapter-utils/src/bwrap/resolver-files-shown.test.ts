import { describe, expect, it } from "vitest";
import type { HostLayout, HostPathKind } from "./host-layout.js";
import { assertNoResolverLinkShownWritable, writableResolverFiles } from "./resolver-files-shown.js";

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

  it("judges a file by its real path where a directory above it is a link", () => {
    const linked = new Map(layout);
    linked.set("/etc/hosts", { kind: "file", real: "/private/etc/hosts" });
    expect(writableResolverFiles(linked, [{ source: "/private", dest: "/private", access: "rw" }])).toEqual([
      { hostPath: "/private/etc/hosts", dest: "/private/etc/hosts" },
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

describe("assertNoResolverLinkShownWritable", () => {
  it("refuses a writable bind of the directory that holds a resolver link, or above it", () => {
    for (const source of ["/etc", "/"]) {
      expect(() =>
        assertNoResolverLinkShownWritable(layout, [{ source, dest: source, access: "rw" }], true),
      ).toThrow(
        expect.objectContaining({
          code: "ERR_SANDBOX_RESOLVER_LINK_WRITABLE",
          details: { path: source, link: "/etc/resolv.conf" },
        }),
      );
    }
  });

  it("refuses a writable bind of a directory holding a link the resolver link passes through", () => {
    const chained = new Map(layout);
    chained.set("/etc/resolv.conf", {
      kind: "symlink",
      target: "resolvconf/run/resolv.conf",
      resolved: "/run/resolvconf/resolv.conf",
      links: ["/etc/resolv.conf", "/etc/resolvconf/run"],
    });
    const binds = [{ source: "/etc/resolvconf", dest: "/etc/resolvconf", access: "rw" as const }];
    expect(() => assertNoResolverLinkShownWritable(chained, binds, true)).toThrow(
      expect.objectContaining({ details: { path: "/etc/resolvconf", link: "/etc/resolvconf/run" } }),
    );
    expect(() => assertNoResolverLinkShownWritable(layout, binds, true)).not.toThrow();
  });

  it("refuses nothing for a runner other than root, whose program writes none of root's files", () => {
    for (const source of ["/etc", "/"])
      expect(() =>
        assertNoResolverLinkShownWritable(layout, [{ source, dest: source, access: "rw" }], false),
      ).not.toThrow();
  });

  it("passes read-only binds, binds beside the link and a resolver path that is a file", () => {
    const withFile = new Map(layout);
    withFile.set("/etc/resolv.conf", { kind: "file" });
    expect(() =>
      assertNoResolverLinkShownWritable(
        layout,
        [
          { source: "/etc", dest: "/etc", access: "ro" },
          { source: "/etc/app", dest: "/etc/app", access: "rw" },
          { source: "/run", dest: "/run", access: "rw" },
        ],
        true,
      ),
    ).not.toThrow();
    expect(() =>
      assertNoResolverLinkShownWritable(withFile, [{ source: "/etc", dest: "/etc", access: "rw" }], true),
    ).not.toThrow();
  });
});
