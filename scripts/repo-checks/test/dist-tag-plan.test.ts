import { describe, expect, it } from "vitest";
import { mayBecomeLatest, planDistTags, STAGING_TAG } from "../src/release/dist-tag-plan.mjs";

describe("mayBecomeLatest", () => {
  it.each([
    ["0.1.0", undefined, true],
    ["0.2.0", "0.1.9", true],
    ["1.0.0", "1.0.0", true],
    ["1.0.0", "2026.916.1", false],
    ["0.3.0", "0.3.1", false],
    ["2.0.0-beta.1", "1.0.0", false],
    ["not-a-version", undefined, false],
  ] as const)("%s over latest %s: %s", (candidate, current, expected) => {
    expect(mayBecomeLatest(candidate, current)).toBe(expected);
  });
});

describe("planDistTags", () => {
  const staged = (version: string, extra: Record<string, string> = {}) => ({
    [STAGING_TAG]: version,
    ...extra,
  });

  it("gives a package just published its declared tag and removes the staging tag", () => {
    expect(
      planDistTags({ name: "@paperclipai/errors", version: "0.1.0", tag: "latest" }, staged("0.1.0")),
    ).toEqual([
      { kind: "add", name: "@paperclipai/errors", version: "0.1.0", tag: "latest" },
      { kind: "remove", name: "@paperclipai/errors", tag: STAGING_TAG },
    ]);
  });

  it("leaves upstream's latest alone for a name that declares another tag", () => {
    const actions = planDistTags(
      { name: "@paperclipai/adapter-utils", version: "1.0.0", tag: "sandbox" },
      staged("1.0.0", { latest: "2026.916.1" }),
    );
    expect(actions.map((action) => action.tag)).toEqual(["sandbox", STAGING_TAG]);
  });

  it("refuses to move latest backwards", () => {
    expect(() =>
      planDistTags(
        { name: "@paperclipai/adapter-utils", version: "1.0.0", tag: "latest" },
        staged("1.0.0", { latest: "2026.916.1" }),
      ),
    ).toThrow(/would move "latest" from 2026\.916\.1 backwards/);
  });

  it("does nothing for a package this release did not publish", () => {
    expect(
      planDistTags({ name: "@paperclipai/errors", version: "0.1.1", tag: "latest" }, staged("0.1.0")),
    ).toEqual([]);
  });
});
