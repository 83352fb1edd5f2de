import { readFileSync } from "node:fs";
import { chmod, mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";

const SHIM =
  '#!/bin/sh\n# Installed by the repo\'s e2e tests: the OpenCode first on PATH.\nexec opencode "$@"\n';

/**
 * The server's runner transport launches a local OpenCode from
 * `dist/vendor/node_modules/opencode-ai/bin/opencode.exe` (its monorepo build's layout), a file
 * the published `@paperclipai/server` does not ship: without it a local OpenCode run fails on the
 * digest of a missing file. Installs there, in the toolchain cache, a shim that runs the
 * `opencode` first on the PATH the server hands its runners (a test's wrapper bound to its model
 * stub, as the Codex tests place their `codex`). Idempotent and atomic: test files share the cache.
 */
export async function installServerOpencodeShim(serverDir: string): Promise<void> {
  const shim = path.join(
    serverDir,
    "node_modules/@paperclipai/server/dist/vendor/node_modules/opencode-ai/bin/opencode.exe",
  );
  try {
    if (readFileSync(shim, "utf8") === SHIM) return;
  } catch {
    // Not there yet.
  }
  await mkdir(path.dirname(shim), { recursive: true });
  const temp = `${shim}.${process.pid}`;
  await writeFile(temp, SHIM);
  await chmod(temp, 0o755);
  await rename(temp, shim);
}
