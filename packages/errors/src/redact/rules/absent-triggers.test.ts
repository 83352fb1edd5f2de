import { describe, expect, it } from "vitest";
import type { RedactionContext } from "../redaction-context.js";
import { redactCliUserPasswords } from "./cli-user-passwords.js";
import { redactKeyAssignments } from "./key-assignments.js";
import { sensitiveWords } from "./key-candidates.js";

const freshContext = (): RedactionContext => ({ replacement: "[REDACTED]", steps: 0 });

// Flags every few characters, none of them a key's or a user's: counted work, not time, shows
// that a rule whose trigger the text lacks judges nothing in it.
const FLAGS_WITHOUT_TRIGGER = "-p x -H y ".repeat(1000);

describe("a rule on text without its trigger", () => {
  it("key assignments: no sensitive word, the text kept for what one search for one costs", () => {
    const context = freshContext();
    expect(redactKeyAssignments(FLAGS_WITHOUT_TRIGGER, context)).toBe(FLAGS_WITHOUT_TRIGGER);
    // The search skips most of the repetition, counting what it compares to do so.
    const search = freshContext();
    expect(sensitiveWords(FLAGS_WITHOUT_TRIGGER, search).next(0)).toBe(null);
    expect(context.steps).toBe(search.steps);
  });

  it("key assignments: a sensitive word anywhere still has every flag judged", () => {
    const context = freshContext();
    const text = `--api-key k9w8v7u6 ${FLAGS_WITHOUT_TRIGGER}--token v1x2y3z4 password=p4q5r6s7`;
    expect(redactKeyAssignments(text, context)).toBe(
      `--api-key [REDACTED] ${FLAGS_WITHOUT_TRIGGER}--token [REDACTED] password=[REDACTED]`,
    );
  });

  it("command-line users: no `u`, nothing judged, the text kept", () => {
    const context = freshContext();
    expect(redactCliUserPasswords(FLAGS_WITHOUT_TRIGGER, context)).toBe(FLAGS_WITHOUT_TRIGGER);
    expect(context.steps).toBe(0);
  });

  it("command-line users: each flag holds a `u`, and is still found", () => {
    for (const flag of ["-u", "--user", "--proxy-user"]) {
      expect(redactCliUserPasswords(`curl ${flag} admin:pw123`, freshContext())).toBe(
        `curl ${flag} admin:[REDACTED]`,
      );
    }
  });
});
