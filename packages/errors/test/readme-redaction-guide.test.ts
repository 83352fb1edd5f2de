import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REDACTION_GUIDE } from "../src/redact/redaction-guide.js";

describe("the README's redaction section", () => {
  it("is the guide `paperclip-errors explain redaction` prints, two heading levels down", async () => {
    const readme = await readFile(path.resolve(import.meta.dirname, "../README.md"), "utf8");
    const start = readme.indexOf("\n", readme.indexOf("<!-- redaction-guide:start")) + 1;
    const end = readme.indexOf("<!-- redaction-guide:end -->");
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start, end).trim()).toBe(REDACTION_GUIDE.replace(/^(#+) /gm, "##$1 ").trim());
  });
});
