import { describe, expect, it } from "vitest";
import { isOwnPrivateRoot } from "./prepare-private-root.js";

const directory = (uid: number, mode: number) => ({ isDirectory: () => true, uid, mode: 0o040000 | mode });

describe("isOwnPrivateRoot", () => {
  it("trusts this uid's directory that no one else can write", () => {
    expect(isOwnPrivateRoot(directory(1000, 0o700), 1000)).toBe(true);
    expect(isOwnPrivateRoot(directory(1000, 0o755), 1000)).toBe(true);
  });

  it("distrusts another user's directory, one others can write, a link and a missing root", () => {
    expect(isOwnPrivateRoot(directory(1001, 0o700), 1000)).toBe(false);
    expect(isOwnPrivateRoot(directory(1000, 0o777), 1000)).toBe(false);
    expect(isOwnPrivateRoot(directory(1000, 0o720), 1000)).toBe(false);
    expect(isOwnPrivateRoot({ isDirectory: () => false, uid: 1000, mode: 0o120777 }, 1000)).toBe(false);
    expect(isOwnPrivateRoot(null, 1000)).toBe(false);
  });
});
