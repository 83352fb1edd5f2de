import { describe, expect, it } from "vitest";
import { PIECE_LENGTH, pieceEnd } from "../src/redact/line-pieces.js";
import { redactSecrets } from "../src/redact/redact-secrets.js";
import type { RedactionContext } from "../src/redact/redaction-context.js";
import { redactPemPrivateKeys } from "../src/redact/rules/pem-private-keys.js";
import { redactInLines } from "../src/redact/rules-in-lines.js";
import { OPERATOR_LINES } from "./redaction-corpus/operator-lines.js";
import { SECRET_LINES } from "./redaction-corpus/secret-lines.js";

// The rules run over the whole text at once, as they did before the text was cut into pieces.
const redactWhole = (text: string, replacement = "[REDACTED]"): string => {
  const context: RedactionContext = { replacement, steps: 0 };
  return redactInLines(redactPemPrivateKeys(text, context), context);
};

// Every corpus line, secret or not, in an order that puts each next to many others.
const corpusText = (length: number): string => {
  const lines = [...SECRET_LINES, ...OPERATOR_LINES].map((line) => line.text);
  const out: string[] = [];
  for (let index = 0, size = 0; size < length; index += 1) {
    const line = lines[(index * 37) % lines.length] as string;
    out.push(line);
    size += line.length + 1;
  }
  return `${out.join("\n")}\n`;
};

describe("redactSecrets on text longer than a piece", () => {
  it("cuts a piece just after the first line break past its length, or not at all", () => {
    const lines = `${"a".repeat(PIECE_LENGTH - 2)}\nbb\ncc\n`;
    expect(pieceEnd(lines, 0)).toBe(PIECE_LENGTH + 2);
    expect(pieceEnd("x".repeat(3 * PIECE_LENGTH), 0)).toBe(3 * PIECE_LENGTH);
    expect(pieceEnd(lines, 10)).toBe(lines.length);
  });

  it.each(["[REDACTED]", "***", '"\\\n'])(
    "gives the whole text's result on the corpus (replacement %j)",
    (replacement) => {
      const text = corpusText(5 * PIECE_LENGTH);
      const redacted = redactSecrets(text, { replacement });
      expect(redacted).toBe(redactWhole(text, replacement));
      expect(redacted).not.toBe(text);
    },
  );

  it("redacts an escaped value left open across the line break that ends a piece, as the whole text does", () => {
    // The line with the open value starts just before the piece's length: the piece ends after it.
    const filler = `${"s".repeat(PIECE_LENGTH - 10)}\n`;
    const text = `${filler}{\\"password\\":\\"hunter2\nand-more\\"} after\n${"status ok\n".repeat(100)}`;
    expect(pieceEnd(text, 0)).toBe(text.indexOf("and-more"));
    const redacted = redactSecrets(text);
    expect(redacted).toBe(redactWhole(text));
    expect(redacted).not.toContain("hunter2");
    expect(redacted).not.toContain("and-more");
  });

  it("keeps a PEM block that spans pieces whole", () => {
    const key = `-----BEGIN PRIVATE KEY-----\n${"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n".repeat((2 * PIECE_LENGTH) / 33)}-----END PRIVATE KEY-----`;
    const text = `before\n${key}\nafter password=hunter2\n`;
    expect(redactSecrets(text)).toBe("before\n[REDACTED]\nafter password=[REDACTED]\n");
  });
});
