import { describe, expect, it } from "vitest";
import { headingAnchors, localLinks } from "../src/markdown-links.js";

describe("localLinks", () => {
  it("finds relative links with their anchors and skips URLs, code and fenced blocks", () => {
    const text = [
      "See [the proxy](../docs/proxy.md#rules) and [below](#limits).",
      "A [site](https://example.com) and `[not](a-link.md)`.",
      "```md",
      "[inside](fenced.md)",
      "```",
      'An [image](chart.svg "title").',
      "The [errors](https://github.com/paperclipai/paperclip/blob/main/docs/errors/README.md#runner),",
      "[docs](https://github.com/paperclipai/paperclip/tree/main/docs), [a fork](https://github.com/x/paperclip/blob/main/a.md).",
    ].join("\n");
    expect(localLinks(text)).toEqual([
      { line: 1, target: "../docs/proxy.md", anchor: "rules", byUrl: false },
      { line: 1, target: "", anchor: "limits", byUrl: false },
      { line: 6, target: "chart.svg", anchor: null, byUrl: false },
      { line: 7, target: "docs/errors/README.md", anchor: "runner", byUrl: true },
      { line: 8, target: "docs", anchor: null, byUrl: true },
    ]);
  });
});

describe("headingAnchors", () => {
  it("slugs headings as GitHub does, numbering repeats", () => {
    const text = [
      "# Title",
      "## Paths: `/paperclip-workspace` and `/tmp`",
      "### The scripted harness (`--fake-harness PATH --script FILE`)",
      "## Limits",
      "```",
      "# a shell comment",
      "```",
      "## Limits",
    ].join("\n");
    expect([...headingAnchors(text)]).toEqual([
      "title",
      "paths-paperclip-workspace-and-tmp",
      "the-scripted-harness---fake-harness-path---script-file",
      "limits",
      "limits-1",
    ]);
  });
});
