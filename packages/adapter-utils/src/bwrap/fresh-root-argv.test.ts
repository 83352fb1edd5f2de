import { describe, expect, it } from "vitest";
import { FreshRootArgv } from "./fresh-root-argv.js";

const BASE = ["--tmpfs", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"];

describe("FreshRootArgv", () => {
  it("creates each missing parent once, outermost first, before the bind", () => {
    const root = new FreshRootArgv();
    root.bind("/srv/a/b", "/srv/a/b", "ro");
    root.bind("/srv/a/c", "/srv/a/c", "rw");
    expect(root.args).toEqual([
      ...BASE,
      ...["--dir", "/srv", "--dir", "/srv/a", "--ro-bind", "/srv/a/b", "/srv/a/b"],
      ...["--bind", "/srv/a/c", "/srv/a/c"],
    ]);
    expect(root.mounted).toEqual([
      { source: "/srv/a/b", dest: "/srv/a/b", access: "ro" },
      { source: "/srv/a/c", dest: "/srv/a/c", access: "rw" },
    ]);
  });

  it("creates no parent a mount already shows", () => {
    const root = new FreshRootArgv();
    root.bind("/usr", "/usr", "ro");
    root.bind("/home/me/lib", "/usr/lib/extra", "rw");
    expect(root.args.slice(BASE.length)).toEqual([
      "--ro-bind",
      "/usr",
      "/usr",
      "--bind",
      "/home/me/lib",
      "/usr/lib/extra",
    ]);
  });

  it("rewrites a destination below a recreated symlink through the link", () => {
    const root = new FreshRootArgv();
    root.bind("/usr", "/usr", "ro");
    root.symlink("usr/bin", "/bin", "/usr/bin");
    expect(root.throughLinks("/bin/tool")).toBe("/usr/bin/tool");
    expect(root.throughLinks("/binary")).toBe("/binary");
    expect(root.args.slice(BASE.length)).toEqual([
      "--ro-bind",
      "/usr",
      "/usr",
      "--symlink",
      "usr/bin",
      "/bin",
    ]);
  });

  it("skips a request its covering mount already shows with the same source and access", () => {
    const root = new FreshRootArgv();
    root.bind("/work", "/work", "rw");
    root.mountRequest({ path: "/work/repo", access: "rw" });
    expect(root.args.slice(BASE.length)).toEqual(["--bind", "/work", "/work"]);
  });

  it("binds a request whose access or real source differs from the covering mount", () => {
    const root = new FreshRootArgv();
    root.bind("/work", "/work", "rw");
    root.mountRequest({ path: "/work/ro", access: "ro" });
    root.mountRequest({ path: "/work/link", access: "rw", source: "/elsewhere" });
    expect(root.args.slice(BASE.length)).toEqual([
      ...["--bind", "/work", "/work"],
      ...["--ro-bind", "/work/ro", "/work/ro"],
      ...["--bind", "/elsewhere", "/work/link"],
    ]);
  });
});
