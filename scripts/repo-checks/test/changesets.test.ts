import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publishableDirs, readPackageJson, repoRoot } from "../src/workspace.js";

const changesetDir = path.join(repoRoot, ".changeset");
const changesets = readdirSync(changesetDir).filter((name) => name.endsWith(".md") && name !== "README.md");
const publishable = new Set(publishableDirs.map((dir) => readPackageJson(dir).name));

/**
 * `changeset version` fails on a changeset whose frontmatter does not parse, at release
 * time; a markdown formatter once turned two of them into headings. So each must open
 * with `---`, one `"package": bump` line per publishable package, `---`, and a summary.
 */
describe.each(changesets)("the changeset %s", (name) => {
  it("opens with frontmatter that names publishable packages and a bump, then a summary", () => {
    const text = readFileSync(path.join(changesetDir, name), "utf8");
    const match = /^---\n((?:"[^"\n]+": (?:major|minor|patch)\n)+)---\n\n(\S[\s\S]*)$/.exec(text);
    expect(match, `${name} does not open with valid frontmatter`).not.toBeNull();
    const packages = [...(match?.[1] ?? "").matchAll(/^"([^"]+)"/gm)].map((entry) => entry[1]);
    for (const pkg of packages) expect(publishable.has(pkg ?? ""), `${name} names ${pkg}`).toBe(true);
    expect(match?.[2]?.trim().length).toBeGreaterThan(20);
  });
});
