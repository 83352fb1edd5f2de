import { homedir } from "node:os";
import { describe, expect, it } from "vitest";
import { programPackageRoot, runnerHomes, showsHome } from "./program-package-root.js";

describe("programPackageRoot", () => {
  const homes = ["/home/ada", "/data/users/ada"];

  it("keeps a package's own directory, inside the home directory or anywhere else", () => {
    for (const root of [
      "/home/ada/.local/lib/node_modules/tool",
      "/home/ada/code/app",
      "/usr/lib/node_modules/npm",
      "/app",
      "/home/adam",
    ]) {
      expect(programPackageRoot(root, homes), root).toBe(root);
    }
  });

  it("gives none for /, a home directory or a directory above one, and when no package.json was found", () => {
    for (const root of ["/", "/home/ada", "/home", "/data/users/ada", "/data", null]) {
      expect(programPackageRoot(root, homes), String(root)).toBeNull();
    }
  });

  it("says which directories are shown whole to no program: /, a home directory and those above", () => {
    for (const dir of ["/", "/home", "/home/ada", "/data/users/ada"])
      expect(showsHome(dir, homes), dir).toBe(true);
    for (const dir of ["/home/ada/bin", "/home/adam", "/usr/bin", "/opt/tool"])
      expect(showsHome(dir, homes), dir).toBe(false);
  });

  it("knows the runner's home as HOME names it", () => {
    expect(runnerHomes()).toContain(homedir());
  });
});
