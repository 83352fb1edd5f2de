import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
// @ts-expect-error the stub is a plain ES module shared with the Node 24 driver
import { stubProviderArgs } from "../driver/model-stub.mjs";

/**
 * Writes `dir/codex`: a script that runs the real Codex CLI with the stub's provider overrides
 * before the server's own arguments. The server passes Codex no arguments of its own choosing
 * and the runner drops `OPENAI_BASE_URL`, so the `codex` found first on the runner's `PATH` is
 * the only place to point Codex at the stub. Returns `dir`.
 */
export async function writeCodexWrapper(
  dir: string,
  realCodex: string,
  stubBaseUrl: string,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const args = [realCodex, ...(stubProviderArgs(stubBaseUrl) as string[])].map(shellQuote).join(" ");
  await writeFile(path.join(dir, "codex"), `#!/bin/sh\nexec ${args} "$@"\n`);
  await chmod(path.join(dir, "codex"), 0o755);
  return dir;
}
