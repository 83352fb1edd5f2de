import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { tempDirForFile } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { publishableDirs, readPackageJson, repoRoot } from "../src/workspace.js";

interface PlannedRelease {
  name: string;
  type: "major" | "minor" | "patch" | "none";
  oldVersion: string;
  newVersion: string;
}

// `changeset status` parses every pending changeset the way `changeset version` will (a
// changeset whose frontmatter does not parse, or that names an unknown package, fails it).
const outDir = tempDirForFile("paperclip-changeset-status-");
const statusFile = path.join(outDir, "status.json");
execFileSync(path.join(repoRoot, "node_modules/.bin/changeset"), ["status", "--output", statusFile], {
  cwd: repoRoot,
  stdio: "pipe",
});
const plan = JSON.parse(readFileSync(statusFile, "utf8")) as { releases: PlannedRelease[] };
const manifests = new Map(publishableDirs.map((dir) => [readPackageJson(dir).name, readPackageJson(dir)]));

describe("the pending changesets (changeset status)", () => {
  it("release only publishable packages", () => {
    const bumped = plan.releases.filter((release) => release.type !== "none");
    for (const release of bumped) expect([...manifests.keys()]).toContain(release.name);
  });

  // docs/releasing.md: our names release on 0.x; a name that is also upstream's (it declares a
  // dist-tag other than latest) releases on 1.x, the first major upstream never published.
  it.each([...manifests.keys()])("keep %s on its version line (no accidental 1.0.0)", (name) => {
    const release = plan.releases.find((entry) => entry.name === name);
    const manifest = manifests.get(name);
    const declaredTag = (manifest?.publishConfig as { tag?: string } | undefined)?.tag ?? "latest";
    const line = declaredTag === "latest" ? 0 : 1;
    const version = release && release.type !== "none" ? release.newVersion : (manifest?.version ?? "");
    // 0.0.0: a package that has not had its first release yet.
    expect(version === "0.0.0" || Number(version.split(".")[0]) === line, `${name}@${version}`).toBe(true);
  });
});
