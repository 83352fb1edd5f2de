import { describe, expect, it } from "vitest";
import { BindBackArgv } from "./bind-back-argv.js";

describe("BindBackArgv", () => {
  it("binds back a path under a masked directory, creating only the parents inside it", () => {
    const args: string[] = [];
    const tree = new BindBackArgv(args, ["/tmp"]);
    tree.bindBack({ path: "/tmp/work/repo", access: "rw" });
    expect(args).toEqual(["--dir", "/tmp/work", "--bind", "/tmp/work/repo", "/tmp/work/repo"]);
    expect(tree.bound).toEqual([{ path: "/tmp/work/repo", access: "rw" }]);
  });

  it("leaves alone a path outside every masked directory, and a program's directory that is one", () => {
    const args: string[] = [];
    const tree = new BindBackArgv(args, ["/tmp", "/run"]);
    tree.bindBack({ path: "/home/me", access: "rw" });
    tree.bindBack({ path: "/run", access: "ro", programDir: "/run" });
    expect(args).toEqual([]);
    expect(tree.bound).toEqual([]);
  });

  it("binds back a masked directory the caller asked for itself (a /tmp workspace)", () => {
    const args: string[] = [];
    const tree = new BindBackArgv(args, ["/tmp", "/run"]);
    tree.bindBack({ path: "/tmp", access: "rw" });
    tree.bindBack({ path: "/run", access: "ro" });
    expect(args).toEqual(["--bind", "/tmp", "/tmp", "--ro-bind", "/run", "/run"]);
    expect(tree.bound).toEqual([
      { path: "/tmp", access: "rw" },
      { path: "/run", access: "ro" },
    ]);
  });

  it("skips a path an earlier bind-back above it already shows with the same access", () => {
    const args: string[] = [];
    const tree = new BindBackArgv(args, ["/tmp"]);
    tree.bindBack({ path: "/tmp/work", access: "rw" });
    tree.bindBack({ path: "/tmp/work/cache", access: "rw" });
    tree.bindBack({ path: "/tmp/work/ro", access: "ro" });
    expect(args).toEqual(["--bind", "/tmp/work", "/tmp/work", "--ro-bind", "/tmp/work/ro", "/tmp/work/ro"]);
  });

  it("creates each parent once across binds and for a later destination", () => {
    const args: string[] = [];
    const tree = new BindBackArgv(args, ["/run/user/0"]);
    tree.bindBack({ path: "/run/user/0/a/b", access: "ro" });
    tree.createParents("/run/user/0/a/c/proxy");
    expect(args).toEqual([
      ...["--dir", "/run/user/0/a", "--ro-bind", "/run/user/0/a/b", "/run/user/0/a/b"],
      ...["--dir", "/run/user/0/a/c"],
    ]);
  });

  it("binds a read-only request outside the masks read-only, and a writable one below it writable again", () => {
    const args: string[] = [];
    const tree = new BindBackArgv(args, ["/tmp"]);
    tree.bindBack({ path: "/home/me/.ssh", access: "ro" });
    tree.bindBack({ path: "/home/me/.ssh/sockets", access: "rw" });
    tree.bindBack({ path: "/home/me/.ssh/sockets/keep", access: "rw" });
    expect(args).toEqual([
      ...["--ro-bind", "/home/me/.ssh", "/home/me/.ssh"],
      ...["--bind", "/home/me/.ssh/sockets", "/home/me/.ssh/sockets"],
    ]);
  });

  it("never binds on, in or above /proc, /dev, /sys, above a masked directory, nor a program's start-up path", () => {
    const args: string[] = [];
    const tree = new BindBackArgv(args, ["/tmp", "/var/run"]);
    for (const path of ["/", "/var", "/dev", "/dev/shm/x", "/proc/sys", "/sys"]) {
      tree.bindBack({ path, access: "ro" });
    }
    tree.bindBack({ path: "/opt/tool/bin", access: "ro", programDir: "/opt/tool/bin" });
    expect(args).toEqual([]);
    expect(tree.bound).toEqual([]);
  });
});
