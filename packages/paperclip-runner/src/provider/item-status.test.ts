import { describe, expect, it } from "vitest";
import { itemStatus } from "./item-status.js";

describe("itemStatus", () => {
  it.each([
    ["failed", "failed", "failed"],
    ["error", "failed", "failed"],
    ["cancelled", "cancelled", "cancelled"],
    ["canceled", "cancelled", "cancelled"],
    ["interrupted", "interrupted", "interrupted"],
    ["aborted", "interrupted", "interrupted"],
    ["declined", "running", "completed"],
    ["errored", "running", "completed"],
    ["rejected", "running", "completed"],
    ["inProgress", "running", "completed"],
    ["completed", "running", "completed"],
    ["timedOut", "running", "completed"],
    ["Failed", "running", "completed"],
    [undefined, "running", "completed"],
    [7, "running", "completed"],
  ])("maps %s to %s on start and %s on completion, as upstream's", (status, onStart, onCompletion) => {
    expect(itemStatus(status, true)).toBe(onStart);
    expect(itemStatus(status, false)).toBe(onCompletion);
  });
});
