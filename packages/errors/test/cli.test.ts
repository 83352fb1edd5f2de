import { spawnSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { explain } from "../src/explain/explain.js";
import { REDACTION_GUIDE } from "../src/redact/redaction-guide.js";
import { errorRegistry } from "../src/registry/registry.js";

const bin = path.resolve(import.meta.dirname, "../bin/paperclip-errors.js");
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });

// Each test starts the built bin once or twice (a Node process loading the registry), which
// on a loaded 2-core CI machine took up to 4 s for two starts, near vitest's default 5 s.
describe("paperclip-errors (the built bin)", { timeout: 30_000 }, () => {
  it("explains a seed code and exits 0", () => {
    const result = run("explain", "ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS");
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(explain("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS"));
  });

  it("explains redaction and exits 0", () => {
    const result = run("explain", "redaction");
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(REDACTION_GUIDE);
  });

  it("exits 1 with the coded error for an unknown code, 2 for bad usage", () => {
    const unknown = run("explain", "ERR_NOPE");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("[ERR_ERRORS_UNKNOWN_CODE]");
    const usage = run("explain");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("[ERR_ERRORS_CLI_USAGE]");
  });

  it("writes the docs tree and removes pages of codes that are gone", async () => {
    const dir = tempDirForTest("paperclip-errors-docs-");
    await writeFile(path.join(dir, "ERR_STALE_PAGE.md"), "old");
    const result = run("docs", "--out", dir);
    expect(result.status).toBe(0);
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(["README.md", ...errorRegistry.map((entry) => `${entry.code}.md`)].sort());
    expect(await readFile(path.join(dir, "ERR_SANDBOX_PROXY_SOCKET_DIR.md"), "utf8")).toBe(
      explain("ERR_SANDBOX_PROXY_SOCKET_DIR"),
    );
  });

  it("prints help", () => {
    const result = run("--help");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: paperclip-errors");
  });
});
