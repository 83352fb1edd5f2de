/** A link of a Markdown file to another file of the repository (not a URL, not `mailto:`). */
export interface LocalLink {
  line: number;
  /** The path part, relative to the linking file; empty for a link to an anchor of the same file. */
  target: string;
  /** The fragment without `#`, or null. */
  anchor: string | null;
}

const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** The local links of a Markdown text, outside fenced code blocks and inline code. */
export function localLinks(markdown: string): LocalLink[] {
  const links: LocalLink[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const match of text.replace(/`[^`]*`/g, "``").matchAll(LINK)) {
      const href = match[1] as string;
      if (EXTERNAL.test(href)) continue;
      const hash = href.indexOf("#");
      links.push({
        line: index + 1,
        target: hash === -1 ? href : href.slice(0, hash),
        anchor: hash === -1 ? null : href.slice(hash + 1),
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
