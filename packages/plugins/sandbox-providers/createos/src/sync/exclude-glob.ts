/**
 * `exclude` patterns of a directory mapping, as in `tar --exclude`: a pattern without `/`
 * matches a name at any depth; one with `/` matches from the mapping's root. `*` and `?`
 * stay within a name, `**` crosses directories. Excluding a directory excludes its contents.
 */
export function compileExcludes(patterns: readonly string[] | undefined): (relativePath: string) => boolean {
  const rules = (patterns ?? []).filter((p) => p !== "").map(compile);
  return (relativePath) => {
    const path = relativePath.replace(/^\.(\/|$)/, "").replace(/\/$/, "");
    if (path === "") return false;
    const segments = path.split("/");
    return rules.some(({ regex, anchored }) => {
      if (anchored) {
        // Match the path or any of its ancestors (excluding a directory excludes what is below).
        for (let i = 1; i <= segments.length; i++)
          if (regex.test(segments.slice(0, i).join("/"))) return true;
        return false;
      }
      return segments.some((segment) => regex.test(segment));
    });
  };
}

function compile(pattern: string): { regex: RegExp; anchored: boolean } {
  const trimmed = pattern.replace(/^\.\//, "").replace(/\/$/, "");
  const anchored = trimmed.includes("/");
  const body = trimmed.replace(/^\//, "");
  let source = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === "*" && body[i + 1] === "*") {
      source += ".*";
      i++;
      if (body[i + 1] === "/") i++;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return { regex: new RegExp(`^${source}$`), anchored };
}
