import { describe, expect, it } from "vitest";
import { errorRegistry } from "../registry/registry.js";
import { caughtSync } from "../testing/caught-code.js";
import { explain } from "./explain.js";
import { renderErrorDocs } from "./render-docs.js";

describe("explain", () => {
  it.each([
    "ERR_SANDBOX_PROXY_SOCKET_DIR",
    "ERR_CREATEOS_OUTPUT_CONNECTION",
    "ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS",
  ])("gives the full page of seed code %s", (code) => {
    const page = explain(code);
    expect(page.startsWith(`# ${code}: `)).toBe(true);
    for (const heading of [
      "## Error message",
      "## What it means",
      "## When it happens",
      "## Solutions",
      "## Prevention",
      "## Example",
    ]) {
      expect(page).toContain(heading);
    }
    expect(page).toMatch(/\n1\. /);
  });

  it("marks a code its package handles itself as internal, not emitted", () => {
    expect(explain("ERR_SANDBOX_CLEANUP_UNFINISHED")).toContain(
      "- Status: internal (handled inside the package, never thrown to a caller)",
    );
    expect(explain("ERR_SANDBOX_PROXY_SOCKET_DIR")).toContain("- Status: emitted\n");
  });

  it("throws ERR_ERRORS_UNKNOWN_CODE for an undocumented code", () => {
    const thrown = caughtSync(() => explain("ERR_DOES_NOT_EXIST"), "ERR_ERRORS_UNKNOWN_CODE");
    expect(thrown.message).toBe('Unknown Paperclip error code "ERR_DOES_NOT_EXIST".');
  });
});

describe("renderErrorDocs", () => {
  it("renders one page per code and an index linking each, grouped by package", () => {
    const files = renderErrorDocs();
    expect(files.size).toBe(errorRegistry.length + 1);
    const index = files.get("README.md") ?? "";
    for (const entry of errorRegistry) {
      expect(index).toContain(`](./${entry.code}.md)`);
      expect(files.get(`${entry.code}.md`)).toBe(explain(entry.code));
    }
    expect(index).toContain("## @paperclipai/adapter-utils");
    expect(index).toContain("## @paperclipai/paperclip-runner");
  });
});
