import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { linkChain } from "./link-chain.js";

describe("linkChain", () => {
  it("lists the path and every link its target passes through, relative and absolute", () => {
    const root = tempDirForTest("pc-link-chain-");
    mkdirSync(path.join(root, "run/resolvconf"), { recursive: true });
    writeFileSync(path.join(root, "run/resolvconf/resolv.conf"), "nameserver 192.0.2.53\n");
    mkdirSync(path.join(root, "etc/resolvconf"), { recursive: true });
    symlinkSync(path.join(root, "run/resolvconf"), path.join(root, "etc/resolvconf/run"));
    symlinkSync("resolvconf/run/resolv.conf", path.join(root, "etc/resolv.conf"));
    expect(linkChain(path.join(root, "etc/resolv.conf"))).toEqual([
      path.join(root, "etc/resolv.conf"),
      path.join(root, "etc/resolvconf/run"),
    ]);
    expect(linkChain(path.join(root, "run/resolvconf/resolv.conf"))).toEqual([]);
  });

  it("stops at a missing component and at a loop", () => {
    const root = tempDirForTest("pc-link-chain-");
    symlinkSync("missing/file", path.join(root, "dangling"));
    symlinkSync("loop", path.join(root, "loop"));
    expect(linkChain(path.join(root, "dangling"))).toEqual([path.join(root, "dangling")]);
    expect(linkChain(path.join(root, "loop"))).toHaveLength(40);
  });
});
