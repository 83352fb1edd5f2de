import { posix } from "node:path";
import picomatch from "picomatch/posix.js";

/**
 * `exclude` patterns of a directory mapping, with one meaning in both sync directions
 * (the plugin filters archive entries itself, on the host, with picomatch): a pattern
 * without `/` matches a name at any depth; one with `/` matches from the mapping's root.
 * `*` and `?` stay within a name, `**` crosses directories, names starting with `.` are
 * matched like any other. Excluding a directory excludes everything below it.
 */
export function compileExcludes(patterns: readonly string[] | undefined): (relativePath: string) => boolean {
  const rules = (patterns ?? []).map(compile).filter((rule) => rule !== undefined);
  if (rules.length === 0) return () => false;
  const matches = (path: string): boolean => rules.some((rule) => rule(path));
  return (relativePath) => {
    // As tar resolves it: a sandbox's archive may spell an excluded path `a/./b` or `a//b`.
    const path = posix
      .normalize(relativePath)
      .replace(/^(\.\/)+/, "")
      .replace(/\/+$/, "");
    if (path === "" || path === ".") return false;
    // The path itself or any of its ancestors, so that a directory's contents go with it.
    const segments = path.split("/");
    for (let depth = 1; depth <= segments.length; depth++) {
      if (matches(segments.slice(0, depth).join("/"))) return true;
    }
    return false;
  };
}

function compile(pattern: string): ((path: string) => boolean) | undefined {
  const trimmed = pattern.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  const anchored = trimmed.includes("/");
  const glob = trimmed.replace(/^\/+/, "");
  if (glob === "") return undefined;
  // picomatch's `basename` applies a slash-free pattern to the last name of the path.
  return picomatch(glob, { dot: true, basename: !anchored });
}
