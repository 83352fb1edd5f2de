import { describe, expect, it } from "vitest";
import { formatTally, tallyVitestLog } from "../src/vitest-tally.mjs";

const PASSING = [
  "@paperclipai/errors:test:  Test Files  4 passed (4)",
  "@paperclipai/errors:test:       Tests  \u001b[1m\u001b[32m52 passed\u001b[39m\u001b[22m\u001b[90m (52)\u001b[39m",
].join("\n");

describe("tallyVitestLog", () => {
  it("reads a summary behind turbo's prefix and vitest's colours, and not the Test Files line", () => {
    expect(tallyVitestLog(PASSING)).toEqual({ runs: 1, passed: 52, failed: 0, skipped: 0 });
  });

  it("counts failed, skipped and todo tests in whatever order vitest prints them", () => {
    const log = [
      "      Tests  2 failed | 40 passed | 1 skipped | 3 todo (46)",
      "      Tests  1 skipped | 5 passed (6)",
    ];
    expect(tallyVitestLog(log.join("\n"))).toEqual({ runs: 2, passed: 45, failed: 2, skipped: 5 });
  });

  it("counts the tests of a file whose beforeAll failed as skipped, so they cannot pass unnoticed", () => {
    const log = " Test Files  1 failed (1)\n      Tests  4 skipped (4)\n";
    expect(tallyVitestLog(log)).toEqual({ runs: 1, passed: 0, failed: 0, skipped: 4 });
  });

  it("ignores test names and other output that mention tests", () => {
    const log = " ✓ test/x.test.ts > Tests 3 passed in a name\nTests: 9 passed\n";
    expect(tallyVitestLog(log)).toEqual({ runs: 0, passed: 0, failed: 0, skipped: 0 });
  });

  it("formats the closing line", () => {
    expect(formatTally({ passed: 3, failed: 1, skipped: 2 })).toBe("3 passed, 1 failed, 2 skipped");
  });
});
