import { homedir, tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { isSharedPlace, programPackageRoot, sharedPlaces } from "./shared-places.js";

describe("shared places", () => {
  const places = ["/home/ada", "/data/users/ada", "/tmp", "/var/tmp", "/run/user/1000"];

  it("keeps a package's own directory, inside the home directory or anywhere else", () => {
    for (const root of [
      "/home/ada/.local/lib/node_modules/tool",
      "/home/ada/code/app",
      "/usr/lib/node_modules/npm",
      "/app",
      "/home/adam",
      "/tmp/build-1/app",
    ]) {
      expect(programPackageRoot(root, places), root).toBe(root);
    }
  });

  it("gives no package root at /, a shared place or above one, nor when no package.json was found", () => {
    for (const root of [
      "/",
      "/home/ada",
      "/home",
      "/data/users/ada",
      "/data",
      "/tmp",
      "/var",
      "/run",
      null,
    ]) {
      expect(programPackageRoot(root, places), String(root)).toBeNull();
    }
  });

  it("says which directories are shown whole to no program", () => {
    for (const dir of ["/", "/home", "/home/ada", "/tmp", "/var/tmp", "/var", "/run/user", "/run/user/1000"])
      expect(isSharedPlace(dir, places), dir).toBe(true);
    for (const dir of [
      "/home/ada/bin",
      "/home/adam",
      "/usr/bin",
      "/opt/tool",
      "/tmp/tool-1",
      "/run/user/1001",
    ])
      expect(isSharedPlace(dir, places), dir).toBe(false);
  });

  it("names the runner's home, temporary and runtime directories, and the system's", () => {
    const named = sharedPlaces({ XDG_RUNTIME_DIR: "/run/user/4242" });
    const own = `/run/user/${process.getuid?.()}`;
    for (const place of [homedir(), tmpdir(), "/tmp", "/var/tmp", "/dev/shm", "/run", "/run/user/4242", own])
      expect(named).toContain(place);
    expect(sharedPlaces({ XDG_RUNTIME_DIR: "relative" })).not.toContain("relative");
  });
});
