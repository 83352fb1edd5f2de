import { describe, expect, it } from "vitest";
import { isPlainFileName, TEMPORARY_ATTEMPTS, temporaryName, temporaryNamePid } from "./temporary-name.js";

describe("temporary names", () => {
  it("follow the upstream pattern", () => {
    expect(temporaryName("runnerd.stderr.log", 4242, 0)).toBe(".runnerd.stderr.log.4242.0.tmp");
    expect(temporaryName("runner-state.json", 7, 31)).toBe(".runner-state.json.7.31.tmp");
  });

  it("parse back to their pid, for every attempt", () => {
    for (let attempt = 0; attempt < TEMPORARY_ATTEMPTS; attempt += 1) {
      expect(temporaryNamePid("runnerd.stderr.log", temporaryName("runnerd.stderr.log", 99, attempt))).toBe(
        99,
      );
    }
  });

  it("ignore other names", () => {
    for (const entry of [
      "runnerd.stderr.log",
      ".runnerd.stderr.log.tmp",
      ".runnerd.stderr.log.12.32.tmp",
      ".runnerd.stderr.log.0.1.tmp",
      ".runnerd.stderr.log.abc.1.tmp",
      ".runnerd.stderr.log.12.1.tmp.bak",
      ".other.12.1.tmp",
    ]) {
      expect(temporaryNamePid("runnerd.stderr.log", entry)).toBeUndefined();
    }
  });

  it("accept only single path components", () => {
    expect(isPlainFileName("runner-state.json")).toBe(true);
    for (const name of ["", ".", "..", "a/b", "/abs", "nul\0"]) expect(isPlainFileName(name)).toBe(false);
  });
});
