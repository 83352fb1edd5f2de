import { describe, expect, it } from "vitest";
import { resolverParentPins } from "./resolver-parent-pins.js";

const targets = ["/etc/hosts", "/run/resolvconf/resolv.conf"];

describe("resolverParentPins", () => {
  it("binds each directory between a writable bind's root and a resolver file onto itself", () => {
    expect(resolverParentPins({ source: "/run", dest: "/run", access: "rw" }, targets)).toEqual([
      ...["--bind", "/run/resolvconf", "/run/resolvconf"],
    ]);
    expect(resolverParentPins({ source: "/", dest: "/", access: "rw" }, targets)).toEqual([
      ...["--bind", "/etc", "/etc", "--bind", "/run", "/run", "--bind", "/run/resolvconf", "/run/resolvconf"],
    ]);
  });

  it("pins at the bind's destination", () => {
    expect(resolverParentPins({ source: "/run", dest: "/var/run", access: "rw" }, targets)).toEqual([
      ...["--bind", "/run/resolvconf", "/var/run/resolvconf"],
    ]);
  });

  it("pins nothing for a read-only bind, a bind beside the files or one of a file's own directory", () => {
    expect(resolverParentPins({ source: "/", dest: "/", access: "ro" }, targets)).toEqual([]);
    expect(resolverParentPins({ source: "/run/user", dest: "/run/user", access: "rw" }, targets)).toEqual([]);
    expect(resolverParentPins({ source: "/etc", dest: "/etc", access: "rw" }, targets)).toEqual([]);
  });
});
