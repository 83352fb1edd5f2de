import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headingAnchors, localLinks } from "../src/markdown-links.js";
import { markdownFiles, publishableDirs, repoRoot } from "../src/workspace.js";

const isMarkdown = (file: string) => file.endsWith(".md");
/** Every Markdown file a reader follows links in: all but changelogs (generated). */
const readerFiles = markdownFiles().filter((file) => path.basename(file) !== "CHANGELOG.md");

describe("links between the repository's Markdown files", () => {
  it.each(readerFiles.map((file) => [path.relative(repoRoot, file), file]))(
    "%s links only to files and headings that exist",
    (_name, file) => {
      const broken: string[] = [];
      for (const link of localLinks(readFileSync(file, "utf8"))) {
        const base = link.byUrl ? repoRoot : path.dirname(file);
        const target = link.target === "" ? file : path.resolve(base, decodeURI(link.target));
        const where = `line ${link.line}: ${link.target}${link.anchor === null ? "" : `#${link.anchor}`}`;
        if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (link.anchor !== null && isMarkdown(target) && statSync(target).isFile()) {
          if (!headingAnchors(readFileSync(target, "utf8")).has(link.anchor))
            broken.push(`${where} (no such heading)`);
        }
      }
      expect(broken).toEqual([]);
    },
  );
});

describe("the README of each published package, as npm shows it", () => {
  it.each(publishableDirs)("%s/README.md links to the repository's files by URL", (dir) => {
    // npm renders the README alone: a relative link resolves against npmjs.com, not the repository.
    const relative = localLinks(readFileSync(path.join(repoRoot, dir, "README.md"), "utf8"))
      .filter((link) => !link.byUrl && link.target !== "")
      .map((link) => `line ${link.line}: ${link.target}`);
    expect(relative).toEqual([]);
  });
});
