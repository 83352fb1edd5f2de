import { describe, expect, it } from "vitest";
import { pinnedLookup } from "./pinned-lookup.js";

describe("pinnedLookup", () => {
  const lookup = pinnedLookup([
    { address: "127.0.0.1", family: 4 },
    { address: "::1", family: 6 },
  ]);

  it("answers any name with the first checked address", () => {
    const answers: unknown[] = [];
    lookup("evil.rebind.test", {}, (error, address, family) => answers.push([error, address, family]));
    expect(answers).toEqual([[null, "127.0.0.1", 4]]);
  });

  it("offers every checked address, in order, in all mode", () => {
    const answers: unknown[] = [];
    lookup("evil.rebind.test", { all: true }, (error, address) => answers.push([error, address]));
    expect(answers).toEqual([
      [
        null,
        [
          { address: "127.0.0.1", family: 4 },
          { address: "::1", family: 6 },
        ],
      ],
    ]);
  });
});
