import { chmodSync, chownSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { preparePrivateRoot } from "../src/temp-dir/prepare-private-root.js";

// A private socket root has a fixed name, so another user (or a sandbox that sees the host tree)
// may make it first: an existing root is looked at, never trusted. Another uid's files need root
// (`preconditions.ts` requires it of this project).

const modeOf = (dir: string) => lstatSync(dir).mode & 0o777;

describe("preparePrivateRoot", () => {
  it("makes a missing root 0700", () => {
    const root = path.join(tempDirForTest("pc-sbx-root-"), "root");
    preparePrivateRoot(root);
    expect(lstatSync(root).isDirectory()).toBe(true);
    expect(modeOf(root)).toBe(0o700);
  });

  it("tightens an existing root of its own that others could enter to 0700", () => {
    const root = path.join(tempDirForTest("pc-sbx-root-"), "root");
    mkdirSync(root);
    chmodSync(root, 0o777);
    preparePrivateRoot(root);
    expect(modeOf(root)).toBe(0o700);
  });

  it("refuses a link at the root's name, even to a directory of its own", () => {
    const parent = tempDirForTest("pc-sbx-root-");
    mkdirSync(path.join(parent, "elsewhere"), { mode: 0o700 });
    const root = path.join(parent, "root");
    symlinkSync(path.join(parent, "elsewhere"), root);
    expect(() => preparePrivateRoot(root)).toThrow(expect.objectContaining({ code: "ENOTDIR" }));
  });

  it("refuses a root another user made first, and leaves its mode alone", () => {
    const root = path.join(tempDirForTest("pc-sbx-root-"), "root");
    mkdirSync(root, { mode: 0o777 });
    chmodSync(root, 0o777);
    chownSync(root, 65534, 65534);
    expect(() => preparePrivateRoot(root)).toThrow(
      expect.objectContaining({ code: "EPERM", message: expect.stringContaining("belongs to uid 65534") }),
    );
    expect(modeOf(root)).toBe(0o777);
  });
});
