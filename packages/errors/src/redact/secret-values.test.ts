import { describe, expect, it } from "vitest";
import type { KeyKind } from "./key-names.js";
import { type AssignmentForm, isSecretValue } from "./secret-values.js";

const judge = (kind: KeyKind, form: AssignmentForm, text: string, quoted = false): boolean =>
  isSecretValue(kind, form, { start: 0, end: text.length, text, quoted, readEnd: text.length }, "[R]");

describe("isSecretValue on digits alone", () => {
  it("keeps a count or a short code, and redacts a password, a long code and a registry blob", () => {
    for (const quoted of [false, true]) {
      expect(judge("credential", "explicit", "12345", quoted)).toBe(false);
      expect(judge("credential", "explicit", "123456", quoted)).toBe(true);
      expect(judge("credential", "flag", "123456", quoted)).toBe(true);
      expect(judge("collection", "explicit", "12345678", quoted)).toBe(false);
      expect(judge("password", "explicit", "1", quoted)).toBe(true);
      expect(judge("registry-auth", "explicit", "1234567", quoted)).toBe(false);
      expect(judge("registry-auth", "explicit", "12345678", quoted)).toBe(true);
      expect(judge("credential", "after-scheme", "1", quoted)).toBe(true);
    }
  });

  it("judges a bare value by its shape, and digits with anything else as before", () => {
    expect(judge("password", "bare", "12345678")).toBe(false);
    expect(judge("credential", "explicit", "123.5")).toBe(false);
    expect(judge("credential", "explicit", "1234x")).toBe(true);
  });

  it("keeps the replacement itself", () => {
    expect(
      isSecretValue(
        "password",
        "explicit",
        { start: 0, end: 2, text: "42", quoted: false, readEnd: 2 },
        "42",
      ),
    ).toBe(false);
  });
});
