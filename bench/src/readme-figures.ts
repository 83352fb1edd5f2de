/**
 * Package READMEs quote the report between `<!-- bench:SUITE:start -->` and
 * `<!-- bench:SUITE:end -->`, so their figures are always the last run's.
 * Returns the text unchanged when the markers are absent.
 */
export function replaceFigures(readme: string, suite: string, figures: string): string {
  const start = `<!-- bench:${suite}:start -->`;
  const end = `<!-- bench:${suite}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end, from);
  if (from === -1 || to === -1) return readme;
  return `${readme.slice(0, from + start.length)}\n${figures}\n${readme.slice(to)}`;
}
