import { describe, expect, it } from "vitest";
import { buildWorkspaceScopeArgs } from "./workspace-scope-args.js";
import { dir, merged, PRIVATE, plan, ROOTS, rooted } from "./workspace-scope-plan.js";

/** The fresh root hides every private socket root; a requested bind that shows one again gets it masked. */
describe("buildWorkspaceScopeArgs and the private socket roots", () => {
  it("masks nothing when no requested path shows a socket root (the fresh root hides them all)", () => {
    expect(
      buildWorkspaceScopeArgs(plan(merged)).filter((arg) => arg.includes("paperclip-sandbox-sockets")),
    ).toEqual([]);
  });

  it("masks every socket root a requested ancestor would show, after the binds and before the proxy directory", () => {
    const args = buildWorkspaceScopeArgs(
      plan(rooted(merged, "/"), {
        mounts: [
          { path: "/", access: "ro" },
          { path: "/ws", access: "rw" },
        ],
        proxyMount: { source: PRIVATE, dest: "/tmp/paperclip-network-sandbox-abc" },
      }),
    );
    const text = args.join(" ");
    expect(text).toContain(
      `--tmpfs ${ROOTS[0]} --tmpfs ${ROOTS[1]} --tmpfs ${ROOTS[2]} --ro-bind ${PRIVATE} /tmp/paperclip-network-sandbox-abc`,
    );
  });

  it("masks the socket root below a requested /tmp, /dev/shm or runtime directory", () => {
    for (const [request, root] of [
      ["/tmp", ROOTS[1]],
      ["/dev", ROOTS[0]],
      ["/run/user/1000", ROOTS[2]],
    ] as const) {
      const layout = rooted(merged, request);
      const args = buildWorkspaceScopeArgs(plan(layout, { mounts: [{ path: request, access: "ro" }] }));
      expect(args.slice(-2)).toEqual(["--tmpfs", root]);
    }
  });

  it("does not mask a root that does not exist on the host (bwrap could not mount there; nothing is there)", () => {
    const args = buildWorkspaceScopeArgs(
      plan(new Map([...merged, ["/dev", dir]]), { mounts: [{ path: "/dev", access: "ro" }] }),
    );
    expect(args).not.toContain("--tmpfs /dev/shm/paperclip-sandbox-sockets-1000");
    expect(args.slice(-3)).toEqual(["--ro-bind", "/dev", "/dev"]);
  });

  it("masks a requested path inside a socket root at its destination", () => {
    const inside = `${ROOTS[0]}/paperclip-network-sandbox-zzz`;
    const layout = rooted(merged, inside);
    const args = buildWorkspaceScopeArgs(plan(layout, { mounts: [{ path: inside, access: "ro" }] }));
    expect(args.slice(-2)).toEqual(["--tmpfs", inside]);
  });

  it("masks a socket root an alias would show at the alias path", () => {
    const layout = rooted(merged, "/tmp");
    const args = buildWorkspaceScopeArgs(
      plan(layout, { mounts: [{ path: "/tmp", access: "rw" }], aliases: [{ path: "/app", target: "/tmp" }] }),
    );
    expect(args.join(" ")).toContain(`--tmpfs ${ROOTS[1]} --tmpfs /app/paperclip-sandbox-sockets-1000`);
  });
});
