import { describe, expect, it } from "vitest";
import { isOutputComplete } from "./completeness.js";

describe("isOutputComplete", () => {
  it("is never complete while the process runs", () => {
    expect(isOutputComplete({ exited: false, newestSeq: 0 }, 10, true)).toBe(false);
  });
  it("compares the cursor with newest_seq", () => {
    expect(isOutputComplete({ exited: true, newestSeq: 10 }, 10, false)).toBe(true);
    expect(isOutputComplete({ exited: true, newestSeq: 11 }, 10, true)).toBe(false);
  });
  it("without newest_seq, trusts only an exit frame", () => {
    expect(isOutputComplete({ exited: true, newestSeq: null }, 3, true)).toBe(true);
    expect(isOutputComplete({ exited: true, newestSeq: null }, 3, false)).toBe(false);
  });
});
