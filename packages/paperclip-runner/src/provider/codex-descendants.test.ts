import { describe, expect, it } from "vitest";
import { addDescendants, MAX_DESCENDANT_THREADS, readDescendantThreadIds } from "./codex-descendants.js";

describe("the sub-agent threads a session remembers", () => {
  it("keeps them unique and in byte order, as upstream saves them", () => {
    expect(addDescendants(["c-2"], ["c-10", "c-2", "é", "z"])).toEqual({
      kind: "added",
      descendantThreadIds: ["c-10", "c-2", "z", "é"],
    });
  });

  it("remembers 4 096 and is exhausted by one more, not by one already known", () => {
    const full = Array.from({ length: MAX_DESCENDANT_THREADS }, (_, index) => `c-${index}`);
    expect(MAX_DESCENDANT_THREADS).toBe(4096);
    expect(addDescendants(full.slice(1), ["c-0"])).toMatchObject({ kind: "added" });
    expect(addDescendants(full, ["c-0"])).toMatchObject({ kind: "added" });
    expect(addDescendants(full, ["c-new"])).toEqual({ kind: "exhausted" });
  });

  it("reads a state saved before them as none, and refuses anything but thread ids", () => {
    expect(readDescendantThreadIds(undefined)).toEqual([]);
    expect(readDescendantThreadIds(["c-1"])).toEqual(["c-1"]);
    for (const value of ["c-1", [""], [1], null])
      expect(() => readDescendantThreadIds(value)).toThrow(
        expect.objectContaining({ code: "ERR_RUNNER_STATE_CORRUPT" }),
      );
  });
});
