// Which npm dist-tags a release moves, decided from the packages and the registry's current
// tags (pure: the promote script does the I/O). `changeset publish` puts every package it
// publishes under the staging tag only; this plan then gives each its declared tag
// (`publishConfig.tag`, npm's own field, default `latest`) and removes the staging tag.
// A name that upstream also publishes (@paperclipai/adapter-utils) declares another tag, so
// its `latest` is never touched; and whatever a package declares, `latest` never moves to a
// lower version or to a prerelease (see docs/releasing.md).

export const STAGING_TAG = "publishing";

/** @typedef {{ name: string, version: string, tag: string }} ReleasedPackage */
/** @typedef {{ kind: "add", name: string, version: string, tag: string } | { kind: "remove", name: string, tag: string }} TagAction */

/**
 * `major.minor.patch` and whether a prerelease follows; undefined for anything else.
 * @param {string} version
 */
function parse(version) {
  const match = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(version);
  if (!match) return undefined;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] !== undefined };
}

/**
 * Whether `candidate` is a release version at or above `current` (what `latest` may move to).
 * @param {string} candidate
 * @param {string | undefined} current
 */
export function mayBecomeLatest(candidate, current) {
  const next = parse(candidate);
  if (!next || next.prerelease) return false;
  if (current === undefined) return true;
  const now = parse(current);
  if (!now) return false;
  for (let index = 0; index < 3; index += 1) {
    const a = next.core[index] ?? 0;
    const b = now.core[index] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/**
 * The tag actions for one package, given the registry's dist-tags of its name. A package
 * whose staging tag does not point at its version was not published by this release: no action.
 * @param {ReleasedPackage} pkg
 * @param {Record<string, string>} distTags
 * @returns {TagAction[]}
 */
export function planDistTags(pkg, distTags) {
  if (distTags[STAGING_TAG] !== pkg.version) return [];
  if (pkg.tag === STAGING_TAG) throw new Error(`${pkg.name}: publishConfig.tag may not be "${STAGING_TAG}"`);
  if (pkg.tag === "latest" && !mayBecomeLatest(pkg.version, distTags.latest)) {
    throw new Error(
      `${pkg.name}@${pkg.version} would move "latest" from ${distTags.latest} backwards; ` +
        "declare another dist-tag in its publishConfig.tag (see docs/releasing.md)",
    );
  }
  return [
    { kind: "add", name: pkg.name, version: pkg.version, tag: pkg.tag },
    { kind: "remove", name: pkg.name, tag: STAGING_TAG },
  ];
}
