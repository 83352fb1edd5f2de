import { describe, expect, it } from "vitest";
import { compileExcludes } from "./exclude-glob.js";

describe("compileExcludes", () => {
  it("matches a pattern without a slash against a name at any depth, dot names included", () => {
    const excluded = compileExcludes(["*.log", "node_modules"]);
    expect(excluded("debug.log")).toBe(true);
    expect(excluded("./sub/debug.log")).toBe(true);
    expect(excluded("sub/.hidden.log")).toBe(true);
    expect(excluded("sub/node_modules")).toBe(true);
    expect(excluded("log")).toBe(false);
    expect(excluded("sub/debug.log.txt")).toBe(false);
  });

  it("excludes everything below an excluded directory", () => {
    const excluded = compileExcludes(["node_modules", "build/"]);
    expect(excluded("a/node_modules/x/y.js")).toBe(true);
    expect(excluded("build/out/main.js")).toBe(true);
    expect(excluded("a/build/out.js")).toBe(true);
    expect(excluded("a/builds/out.js")).toBe(false);
  });

  it("anchors a pattern with a slash at the mapping's root; * stays in a name, ** crosses directories", () => {
    const excluded = compileExcludes(["docs/*.md", "./cache/**/tmp", "/dist"]);
    expect(excluded("docs/a.md")).toBe(true);
    expect(excluded("docs/deep/a.md")).toBe(false);
    expect(excluded("sub/docs/a.md")).toBe(false);
    expect(excluded("cache/tmp")).toBe(true);
    expect(excluded("cache/a/b/tmp/file")).toBe(true);
    expect(excluded("dist/x")).toBe(true);
    expect(excluded("sub/dist")).toBe(false);
  });

  it("matches a path as tar resolves it, whatever . segments or doubled slashes spell it", () => {
    const excluded = compileExcludes([".git/hooks", "docs/*.md"]);
    for (const path of [".git/./hooks/x", ".git//hooks/x", ".//.git/hooks", "./docs/./a.md", "docs//a.md"])
      expect(excluded(path)).toBe(true);
    expect(excluded(".git/./config")).toBe(false);
  });

  it("never excludes the root itself, and excludes nothing without patterns", () => {
    expect(compileExcludes(["*"])(".")).toBe(false);
    expect(compileExcludes(["*"])("./")).toBe(false);
    expect(compileExcludes(["*"])("a")).toBe(true);
    expect(compileExcludes(undefined)("a")).toBe(false);
    expect(compileExcludes(["", "./"])("a")).toBe(false);
  });

  it("supports braces and character classes", () => {
    const excluded = compileExcludes(["*.{tmp,bak}", "file[0-9]"]);
    expect(excluded("x.tmp")).toBe(true);
    expect(excluded("d/y.bak")).toBe(true);
    expect(excluded("file7")).toBe(true);
    expect(excluded("filex")).toBe(false);
  });
});
