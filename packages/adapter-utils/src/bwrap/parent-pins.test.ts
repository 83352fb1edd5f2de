import { describe, expect, it } from "vitest";
import type { HostLayout, HostPathKind } from "./host-layout.js";
import { parentPins, pinTargets } from "./parent-pins.js";

const targets = ["/etc/hosts", "/run/resolvconf/resolv.conf"];

describe("parentPins", () => {
  it("binds each directory between a writable bind's root and a resolver file onto itself", () => {
    expect(parentPins({ source: "/run", dest: "/run", access: "rw" }, targets)).toEqual([
      ...["--bind", "/run/resolvconf", "/run/resolvconf"],
    ]);
    expect(parentPins({ source: "/", dest: "/", access: "rw" }, targets)).toEqual([
      ...["--bind", "/etc", "/etc", "--bind", "/run", "/run", "--bind", "/run/resolvconf", "/run/resolvconf"],
    ]);
  });

  it("pins at the bind's destination", () => {
    expect(parentPins({ source: "/run", dest: "/var/run", access: "rw" }, targets)).toEqual([
      ...["--bind", "/run/resolvconf", "/var/run/resolvconf"],
    ]);
  });

  it("pins nothing for a read-only bind, a bind beside the files or one of a file's own directory", () => {
    expect(parentPins({ source: "/", dest: "/", access: "ro" }, targets)).toEqual([]);
    expect(parentPins({ source: "/run/user", dest: "/run/user", access: "rw" }, targets)).toEqual([]);
    expect(parentPins({ source: "/etc", dest: "/etc", access: "rw" }, targets)).toEqual([]);
  });
});

describe("pinTargets", () => {
  const roots = [
    "/dev/shm/paperclip-sandbox-sockets-0",
    "/run/shm/paperclip-sandbox-sockets-0",
    "/run/user/0/paperclip-sandbox-sockets-0",
  ];

  it("adds every socket root present on the host to the resolver files", () => {
    const layout: HostLayout = new Map<string, HostPathKind>([
      ["/etc/hosts", { kind: "file" }],
      [roots[0]!, { kind: "directory" }],
      [roots[1]!, { kind: "directory" }],
    ]);
    expect(pinTargets(layout, roots)).toEqual(["/etc/hosts", roots[0], roots[1]]);
  });

  it("keeps a writable /run from moving the directories above a socket root, never /dev's", () => {
    const targets = [...roots, "/tmp/paperclip-sandbox-sockets-0"];
    expect(parentPins({ source: "/run", dest: "/run", access: "rw" }, targets)).toEqual([
      ...["--bind", "/run/shm", "/run/shm", "--bind", "/run/user", "/run/user"],
      ...["--bind", "/run/user/0", "/run/user/0"],
    ]);
    expect(parentPins({ source: "/", dest: "/", access: "rw" }, targets)).toEqual([
      ...["--bind", "/run", "/run", "--bind", "/run/shm", "/run/shm", "--bind", "/run/user", "/run/user"],
      ...["--bind", "/run/user/0", "/run/user/0", "--bind", "/tmp", "/tmp"],
    ]);
    expect(parentPins({ source: "/run/user/0", dest: "/run/user/0", access: "rw" }, targets)).toEqual([]);
  });
});
