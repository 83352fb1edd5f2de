import { describe, expect, it } from "vitest";
import { redactSecrets } from "../src/redact/redact-secrets.js";
import { OPERATOR_LINES } from "./redaction-corpus/operator-lines.js";
import { scoreCorpus } from "./redaction-corpus/score.js";
import { SECRET_LINES } from "./redaction-corpus/secret-lines.js";

describe("redactSecrets on the labelled corpus", () => {
  it("holds at least 100 secret lines across every class and 100 operator lines", () => {
    expect(SECRET_LINES.length).toBeGreaterThanOrEqual(100);
    expect(OPERATOR_LINES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(SECRET_LINES.map((entry) => entry.label)).size).toBe(12);
    for (const entry of SECRET_LINES) {
      expect(entry.secrets.length, entry.text).toBeGreaterThan(0);
      for (const secret of entry.secrets) expect(entry.text).toContain(secret);
    }
  });

  it("catches every secret and leaves every operator line unchanged (recall 100%, 0 false positives)", () => {
    const score = scoreCorpus((text) => redactSecrets(text));
    const recall = ((100 * score.caught) / score.secretLines).toFixed(1);
    console.info(
      `redaction corpus: recall ${recall}% (${score.caught}/${score.secretLines} secret lines), ` +
        `${score.falsePositives} false positives in ${score.operatorLines} operator lines`,
    );
    expect(score.missed).toEqual([]);
    expect(score.damaged).toEqual([]);
  });

  it("is idempotent on every secret line", () => {
    for (const entry of SECRET_LINES) {
      const once = redactSecrets(entry.text);
      expect(redactSecrets(once), entry.text).toBe(once);
    }
  });
});
