import { describe, expect, it } from "vitest";
import type { HostLayout, HostPathKind } from "./host-layout.js";
import { SYSTEM_SECRET_PATHS } from "./system-paths.js";
import { systemSecretMasks } from "./system-secret-masks.js";
import { buildWorkspaceScopeArgs } from "./workspace-scope-args.js";

const dir: HostPathKind = { kind: "directory" };
const layout: HostLayout = new Map<string, HostPathKind>([
  ["/usr", dir],
  ["/etc/ssl", dir],
  ["/etc/ssl/private", dir],
  ["/ws", dir],
]);

const masks = (
  mounts: { path: string; access: "ro" | "rw"; programDir?: string }[],
  aliases = [] as { path: string }[],
) => systemSecretMasks({ layout, secretPaths: SYSTEM_SECRET_PATHS, mounts, aliases });

describe("systemSecretMasks", () => {
  it("hides /etc/ssl/private where the host has it, also behind a program's own start-up path", () => {
    expect(masks([{ path: "/ws", access: "rw" }])).toEqual(["/etc/ssl/private"]);
    expect(masks([{ path: "/etc/ssl", access: "ro", programDir: "/etc/ssl/bin" }])).toEqual([
      "/etc/ssl/private",
    ]);
    expect(
      systemSecretMasks({ layout: new Map(), secretPaths: SYSTEM_SECRET_PATHS, mounts: [], aliases: [] }),
    ).toEqual([]);
  });

  it("hides OpenSSL's own private directory where it is a real one, not where it links to /etc/ssl/private", () => {
    const openssl = (kind: HostPathKind): HostLayout =>
      new Map<string, HostPathKind>([
        ...layout,
        ["/usr/lib/ssl/private", kind],
        ["/usr/local/ssl/private", dir],
      ]);
    const link: HostPathKind = { kind: "symlink", target: "/etc/ssl/private", resolved: "/etc/ssl/private" };
    const hidden = (kind: HostPathKind) =>
      systemSecretMasks({ layout: openssl(kind), secretPaths: SYSTEM_SECRET_PATHS, mounts: [], aliases: [] });
    expect(hidden(dir)).toEqual(["/etc/ssl/private", "/usr/lib/ssl/private", "/usr/local/ssl/private"]);
    expect(hidden(link)).toEqual(["/etc/ssl/private", "/usr/local/ssl/private"]);
  });

  it("shows it as asked when the caller requests it, a path inside it or one above it", () => {
    for (const asked of ["/etc/ssl/private", "/etc/ssl/private/app.pem", "/etc/ssl", "/etc", "/"]) {
      expect(masks([{ path: asked, access: "ro" }]), asked).toEqual([]);
      expect(masks([], [{ path: asked }]), `alias ${asked}`).toEqual([]);
    }
  });

  it("is an empty read-only tmpfs after the system paths and the requested mounts", () => {
    const args = buildWorkspaceScopeArgs({
      layout,
      systemPaths: ["/usr", "/etc/ssl"],
      secretPaths: SYSTEM_SECRET_PATHS,
      mounts: [{ path: "/ws", access: "rw" }],
      aliases: [],
      proxyMount: null,
      runnerIsRoot: true,
      socketRoots: [],
      initMask: null,
    }).join(" ");
    expect(args).toContain(
      "--ro-bind /etc/ssl /etc/ssl --bind /ws /ws --tmpfs /etc/ssl/private --remount-ro /etc/ssl/private",
    );
  });
});
