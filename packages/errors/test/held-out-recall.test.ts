import { describe, expect, it } from "vitest";
import { redactSecrets } from "../src/redact/redact-secrets.js";
import { DAMAGE_LINES } from "./held-out/damage-lines.js";
import { GITLEAKS_KEYWORD_SHAPES } from "./held-out/gitleaks-keyword-shapes.js";
import { GITLEAKS_RULE_IDS, GITLEAKS_UNCOVERED } from "./held-out/gitleaks-rule-ids.js";
import { GITLEAKS_PREFIX_SHAPES } from "./held-out/gitleaks-shapes.js";
import { GITLEAKS_URL_AND_BLOCK_SHAPES } from "./held-out/gitleaks-url-shapes.js";
import type { ScannerShape } from "./held-out/scanner-shape.js";
import { TRUFFLEHOG_SHAPES } from "./held-out/trufflehog-shapes.js";

// Recall beyond the labelled corpus: shapes from the default rule sets of gitleaks and
// trufflehog, and commands that only name a secret. A test each, so a miss names its rule.
const caseName = (shape: ScannerShape) => `${shape.scanner} ${shape.rule}`;
// A redaction that stops inside a secret leaves the rest of it: no piece this long may survive.
const PIECE = 12;
const survivingPieces = (output: string, secret: string): string[] => {
  const pieces: string[] = [];
  for (let start = 0; start + PIECE <= secret.length; start += 1) {
    const piece = secret.slice(start, start + PIECE);
    if (output.includes(piece)) pieces.push(piece);
  }
  return pieces;
};

describe.each([
  ["gitleaks prefix rules", GITLEAKS_PREFIX_SHAPES],
  ["gitleaks keyword rules", GITLEAKS_KEYWORD_SHAPES],
  ["gitleaks URL and private key rules", GITLEAKS_URL_AND_BLOCK_SHAPES],
  ["trufflehog detectors", TRUFFLEHOG_SHAPES],
])("redactSecrets on held-out %s", (_set, shapes) => {
  it.each(shapes.map((shape) => [caseName(shape), shape] as const))("%s", (_name, shape) => {
    expect(shape.secrets.length).toBeGreaterThan(0);
    const output = redactSecrets(shape.text);
    for (const secret of shape.secrets) {
      expect(output, shape.text).not.toContain(secret);
      expect(survivingPieces(output, secret), output).toEqual([]);
    }
    expect(output).toContain("[REDACTED]");
    expect(redactSecrets(output)).toBe(output);
  });
});

describe("the held-out set covers gitleaks' default rules", () => {
  // A shape's rule is the gitleaks id, optionally followed by a variant in parentheses.
  const shaped = new Set(
    [...GITLEAKS_PREFIX_SHAPES, ...GITLEAKS_KEYWORD_SHAPES, ...GITLEAKS_URL_AND_BLOCK_SHAPES].map(
      (shape) => shape.rule.split(" ")[0] as string,
    ),
  );

  it.each(GITLEAKS_RULE_IDS)("%s has a shape or a reason to have none", (id) => {
    expect(shaped.has(id) || id in GITLEAKS_UNCOVERED).toBe(true);
    expect(shaped.has(id) && id in GITLEAKS_UNCOVERED).toBe(false);
  });

  it("names only rules of the default config", () => {
    const known = new Set(GITLEAKS_RULE_IDS);
    expect([...shaped, ...Object.keys(GITLEAKS_UNCOVERED)].filter((id) => !known.has(id))).toEqual([]);
  });
});

describe("redactSecrets leaves commands and prose that only name a secret unchanged", () => {
  it.each(DAMAGE_LINES)("%s", (line) => {
    expect(redactSecrets(line)).toBe(line);
  });
});
