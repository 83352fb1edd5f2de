import { chmodSync, copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { shellQuote } from "@paperclipai/internal";

/** Relative module specifiers of an ES module (`import … from "./x.js"`, `export … from "../y.js"`). */
function relativeImports(source: string): string[] {
  return [...source.matchAll(/(?:import|export)\s[^;]*?from\s*"(\.{1,2}\/[^"]+)"/g)].map(
    (match) => match[1] as string,
  );
}

/** `dist/vendor/paperclip-runner` of the pinned `@paperclipai/server` in `nodeModules`. */
export function upstreamRunnerVendor(nodeModules: string): string {
  return join(nodeModules, "@paperclipai/server/dist/vendor/paperclip-runner");
}

/**
 * Copies `entry` and every module it reaches by relative import from the
 * upstream vendor tree into `target`, keeping their layout, and links the
 * vendor's `node_modules` beside it for the bare imports (ajv's runtime).
 * Upstream's controller finds its binary relative to its own file, so a copy is
 * where our bin can be placed without touching the shared cache.
 */
export function copyUpstreamModules(
  vendorRoot: string,
  entry: string,
  target: string,
  nodeModules: string,
): void {
  const seen = new Set<string>();
  const pending = [resolve(vendorRoot, entry)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const destination = join(target, relative(vendorRoot, file));
    mkdirSync(dirname(destination), { recursive: true });
    copyFileSync(file, destination);
    for (const specifier of relativeImports(readFileSync(file, "utf8")))
      pending.push(resolve(dirname(file), specifier));
  }
  symlinkSync(nodeModules, join(dirname(target), "node_modules"), "dir");
}

/** An executable shell script at `path` that runs `script` with `node`, passing its arguments on. */
export function writeNodeLauncher(path: string, node: string, script: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\nexec ${shellQuote(node)} ${shellQuote(script)} "$@"\n`);
  chmodSync(path, 0o755);
}
