import { execFile } from "node:child_process";
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { tempDirForTest } from "@paperclipai/test-support";
import { beforeEach, describe, expect, it } from "vitest";
import { writeCodexWrapper } from "../src/codex-wrapper.js";

const run = promisify(execFile);

let dir: string;
beforeEach(() => {
  dir = tempDirForTest("codex wrapper-");
});

describe("writeCodexWrapper", () => {
  it("runs the real binary with the stub's overrides first, then the caller's arguments verbatim", async () => {
    // A stand-in for the real CLI (its path has a space and a quote) that prints its arguments.
    const real = path.join(dir, "real 'codex'");
    await writeFile(real, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    await chmod(real, 0o755);
    const binDir = await writeCodexWrapper(path.join(dir, "bin"), real, "http://127.0.0.1:9/v1");
    const { stdout } = await run(path.join(binDir, "codex"), ["app-server", "it's $HOME"]);
    const args = stdout.split("\n").slice(0, -1);
    expect(args).toContain('model_providers.mock_provider.base_url="http://127.0.0.1:9/v1"');
    expect(args).toContain("project_doc_max_bytes=0");
    expect(args.slice(-2)).toEqual(["app-server", "it's $HOME"]);
    expect(args.indexOf("app-server")).toBeGreaterThan(args.indexOf("project_doc_max_bytes=0"));
  });
});
