/** The TypeScript code blocks of a Markdown text, in order: the fences opened with ```ts or ```typescript. */
export function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)].map(
    (match) => match[1] as string,
  );
}
