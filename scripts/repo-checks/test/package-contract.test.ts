import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPOSITORY_WEB_URL } from "../src/markdown-links.js";
import { publishableDirs, readPackageJson, repoRoot, TESTED_NODE_MAJORS } from "../src/workspace.js";

type Conditions = Record<string, unknown>;

describe.each(publishableDirs)("the package contract of %s", (dir) => {
  const pkg = readPackageJson(dir);

  it("has the metadata a published package needs", () => {
    expect(pkg.name).toMatch(/^@paperclipai\//);
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof pkg.description).toBe("string");
    expect(pkg.license).toBe("MIT");
    expect(pkg.type).toBe("module");
    expect(pkg.sideEffects === false || Array.isArray(pkg.sideEffects)).toBe(true);
    expect(pkg.files).toContain("dist");
    expect((pkg.repository as Conditions).directory).toBe(dir);
    // The READMEs link to the repository's files through this URL (docs-links.test.ts).
    expect((pkg.repository as Conditions).url).toBe(`git+${REPOSITORY_WEB_URL}.git`);
    // `tag` only where the name is also upstream's and `latest` stays theirs (docs/releasing.md).
    const { tag, ...publishConfig } = pkg.publishConfig as Conditions;
    expect(publishConfig).toEqual({ access: "public", provenance: true });
    expect(tag === undefined || typeof tag === "string").toBe(true);
  });

  it("claims in engines only Node majors the test command runs, and its README names them", () => {
    const range = String((pkg.engines as Conditions | undefined)?.node ?? "");
    const majors = [...range.matchAll(/(\d+)\.\d+\.\d+/g)].map((match) => Number(match[1]));
    expect(majors.length, `engines.node of ${dir}`).toBeGreaterThan(0);
    for (const major of majors) expect(TESTED_NODE_MAJORS).toContain(major);
    const readme = readFileSync(path.join(repoRoot, dir, "README.md"), "utf8").replace(/\s+/g, " ");
    const nodeSentences = readme.split(/(?<=\.) /).filter((sentence) => /\bNode(?:\.js)? \d/.test(sentence));
    const namesEvery = (sentence: string) =>
      majors.every((major) => new RegExp(`\\b${major}\\b`).test(sentence));
    expect(nodeSentences.some(namesEvery), `${dir}/README.md names Node ${majors.join(", ")}`).toBe(true);
  });

  it("lists explicit exports, types first, for import and require", () => {
    const exportsMap = pkg.exports as Record<string, Conditions | string>;
    expect(exportsMap["."]).toBeDefined();
    for (const [subpath, target] of Object.entries(exportsMap)) {
      expect(subpath).not.toContain("*");
      if (subpath === "./package.json") continue;
      const conditions = target as Record<string, Conditions>;
      expect(Object.keys(conditions)).toEqual(["import", "require"]);
      for (const condition of ["import", "require"] as const) {
        expect(Object.keys(conditions[condition] ?? {})[0]).toBe("types");
      }
      expect(conditions.require?.types).toMatch(/\.d\.cts$/);
      expect(conditions.require?.default).toMatch(/\.cjs$/);
    }
  });

  it("depends on workspace packages with workspace:^", () => {
    for (const field of ["dependencies", "devDependencies", "peerDependencies"]) {
      for (const [name, range] of Object.entries((pkg[field] as Record<string, string>) ?? {})) {
        if (name.startsWith("@paperclipai/") && name !== "@paperclipai/plugin-sdk")
          expect(range).toBe("workspace:^");
      }
    }
  });

  it("has the scripts, tsconfig, README and CHANGELOG of the contract", () => {
    const scripts = pkg.scripts as Record<string, string>;
    for (const script of ["build", "test", "typecheck", "lint", "check:package"])
      expect(scripts[script]).toBeDefined();
    expect(scripts["check:package"]).toContain("publint --strict");
    expect(scripts["check:package"]).toContain("attw --pack");
    const tsconfig = JSON.parse(
      readFileSync(path.join(repoRoot, dir, "tsconfig.json"), "utf8"),
    ) as Conditions;
    expect(path.resolve(repoRoot, dir, String(tsconfig.extends))).toBe(
      path.join(repoRoot, "tsconfig.base.json"),
    );
    expect(existsSync(path.join(repoRoot, dir, "README.md"))).toBe(true);
    expect(existsSync(path.join(repoRoot, dir, "CHANGELOG.md"))).toBe(true);
  });

  it("tells npm users to install it under the dist-tag it publishes to", () => {
    // A name that is also upstream's keeps `latest` for upstream: a bare install gets theirs.
    const tag = (pkg.publishConfig as Conditions).tag;
    const readme = readFileSync(path.join(repoRoot, dir, "README.md"), "utf8");
    const installs = [...readme.matchAll(/npm install (?:-D )?([\w@./-]+)/g)].map((match) => match[1] ?? "");
    const own = installs.filter((spec) => spec === pkg.name || spec.startsWith(`${pkg.name}@`));
    expect(own).toEqual([tag === undefined ? pkg.name : `${pkg.name}@${tag}`]);
  });

  it("keeps its README a README: at most 200 lines, the depth in docs/", () => {
    const readme = readFileSync(path.join(repoRoot, dir, "README.md"), "utf8");
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });

  it("ships every bin it declares", () => {
    for (const file of Object.values((pkg.bin as Record<string, string>) ?? {})) {
      const source = readFileSync(path.join(repoRoot, dir, file), "utf8");
      expect(source.startsWith("#!/usr/bin/env node\n")).toBe(true);
    }
  });
});
