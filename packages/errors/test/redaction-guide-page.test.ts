import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REDACTION_GUIDE } from "../src/redact/redaction-guide.js";

describe("docs/redaction.md", () => {
  it("quotes the guide `paperclip-errors explain redaction` prints, word for word", async () => {
    const page = await readFile(path.resolve(import.meta.dirname, "../../../docs/redaction.md"), "utf8");
    const start = page.indexOf("\n", page.indexOf("<!-- redaction-guide:start")) + 1;
    const end = page.indexOf("<!-- redaction-guide:end -->");
    expect(start).toBeGreaterThan(0);
    expect(page.slice(start, end).trim()).toBe(REDACTION_GUIDE.trim());
  });
});
