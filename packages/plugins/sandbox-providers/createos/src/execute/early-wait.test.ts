import { describe, expect, it } from "vitest";
import { isExitEvidence } from "./early-wait.js";
import { WAIT_UNAVAILABLE } from "./process-api.js";

const exited = { available: true, exited: true, exitCode: 0, signal: null, newestSeq: 4 };
const running = { available: true, exited: false, exitCode: null, signal: null, newestSeq: null };

describe("isExitEvidence", () => {
  it("an exit is evidence, with or without newest_seq", () => {
    expect(isExitEvidence(exited)).toBe(true);
    expect(isExitEvidence({ ...exited, newestSeq: null })).toBe(true);
  });
  it("a server without wait is evidence that only the exit frame can tell", () => {
    expect(isExitEvidence(WAIT_UNAVAILABLE)).toBe(true);
  });
  it("a 408 (still running when it answered) is not", () => {
    expect(isExitEvidence(running)).toBe(false);
  });
});
