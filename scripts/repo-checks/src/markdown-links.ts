/**
 * The repository on GitHub, as every package's `repository.url` names it. A published README
 * links to the repository's files through it: npm shows the README without the repository.
 */
export const REPOSITORY_WEB_URL = "https://github.com/paperclipai/paperclip";

/** A link of a Markdown file to another file of the repository: relative, or by its GitHub URL on main. */
export interface LocalLink {
  line: number;
  /**
   * The path part, relative to the linking file (or, for a GitHub URL, to the repository root);
   * empty for a link to an anchor of the same file.
   */
  target: string;
  /** The fragment without `#`, or null. */
  anchor: string | null;
  /** True for a link by the repository's GitHub URL, whose target is relative to the root. */
  byUrl: boolean;
}

const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;
const REPOSITORY_FILE = new RegExp(`^${REPOSITORY_WEB_URL.replaceAll(".", "\\.")}/(?:blob|tree)/main/`);

/** The local links of a Markdown text, outside fenced code blocks and inline code. */
export function localLinks(markdown: string): LocalLink[] {
  const links: LocalLink[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const match of text.replace(/`[^`]*`/g, "``").matchAll(LINK)) {
      const byUrl = REPOSITORY_FILE.test(match[1] as string);
      const href = (match[1] as string).replace(REPOSITORY_FILE, "");
      if (!byUrl && EXTERNAL.test(href)) continue;
      const hash = href.indexOf("#");
      links.push({
        line: index + 1,
        target: hash === -1 ? href : href.slice(0, hash),
        anchor: hash === -1 ? null : href.slice(hash + 1),
        byUrl,
      });
    }
  });
  return links;
}

/** The anchors GitHub gives a Markdown text's headings (lower case, punctuation dropped, spaces → `-`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const text of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const slug = (heading[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
