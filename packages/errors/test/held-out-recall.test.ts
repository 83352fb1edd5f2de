import { describe, expect, it } from "vitest";
import { redactSecrets } from "../src/redact/redact-secrets.js";
import { DAMAGE_LINES } from "./held-out/damage-lines.js";
import { GITLEAKS_KEYWORD_SHAPES, GITLEAKS_PREFIX_SHAPES } from "./held-out/gitleaks-shapes.js";
import type { ScannerShape } from "./held-out/scanner-shape.js";
import { TRUFFLEHOG_SHAPES } from "./held-out/trufflehog-shapes.js";

// Recall beyond the labelled corpus: shapes from the default rule sets of gitleaks and
// trufflehog, and commands that only name a secret. A test each, so a miss names its rule.
const caseName = (shape: ScannerShape) => `${shape.scanner} ${shape.rule}`;

describe.each([
  ["gitleaks prefix rules", GITLEAKS_PREFIX_SHAPES],
  ["gitleaks keyword rules", GITLEAKS_KEYWORD_SHAPES],
  ["trufflehog detectors", TRUFFLEHOG_SHAPES],
])("redactSecrets on held-out %s", (_set, shapes) => {
  it.each(shapes.map((shape) => [caseName(shape), shape] as const))("%s", (_name, shape) => {
    expect(shape.secrets.length).toBeGreaterThan(0);
    const output = redactSecrets(shape.text);
    for (const secret of shape.secrets) expect(output, shape.text).not.toContain(secret);
    expect(output).toContain("[REDACTED]");
    expect(redactSecrets(output)).toBe(output);
  });
});

describe("redactSecrets leaves commands and prose that only name a secret unchanged", () => {
  it.each(DAMAGE_LINES)("%s", (line) => {
    expect(redactSecrets(line)).toBe(line);
  });
});
