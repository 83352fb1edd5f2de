import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  cjsProbe,
  esmProbe,
  type InstalledEntryPoints,
  SHARED_TS_OPTIONS,
  specifiers,
  TSCONFIGS,
  typescriptProbe,
} from "./consumer-probes.js";
import type { LocalRegistry } from "./local-registry.js";
import { npm, run } from "./npm.js";
import type { Released } from "./release.js";

/** What a consumer needs besides our packages to use them from TypeScript. */
const TYPESCRIPT_TOOLS = ["typescript@5.9.3", "@types/node@20"];

/** A fresh app, outside the workspace, that installed every released package from the registry. */
export interface ConsumerApp {
  readonly dir: string;
  readonly node: string;
  /** Each installed package's manifest, as the registry served it. */
  readonly installed: ReadonlyMap<string, { version: string; bin?: Record<string, string> }>;
  /** Runs one of the app's probe files (`probe.mjs`, `probe.cjs`) on the app's Node; its stdout. */
  runFile(file: string): Promise<string>;
  /**
   * `tsc -p CONFIG` on the app's Node; resolves with tsc's output once it passes. Only an app
   * installed `withTypescript` has TypeScript and the configs.
   */
  typecheck(config: string): Promise<string>;
  /** Runs an installed bin on the app's Node. */
  runBin(bin: string, args: readonly string[]): Promise<string>;
}

async function writeTypescriptProbes(dir: string, all: ReturnType<typeof specifiers>): Promise<void> {
  await writeFile(path.join(dir, "probe-esm.mts"), typescriptProbe(all));
  await writeFile(path.join(dir, "probe-cjs.cts"), typescriptProbe(all));
  await writeFile(path.join(dir, "probe-bundler.ts"), typescriptProbe(all));
  for (const [name, { compilerOptions, files }] of Object.entries(TSCONFIGS)) {
    await writeFile(
      path.join(dir, name),
      JSON.stringify({ compilerOptions: { ...SHARED_TS_OPTIONS, ...compilerOptions }, files }, null, 2),
    );
  }
}

/** How a user installs each package: by name, and by its dist-tag where that is not `latest`. */
export function installSpec(pkg: Released): string {
  return pkg.tag === "latest" ? pkg.name : `${pkg.name}@${pkg.tag}`;
}

/**
 * `npm install` of every released package into `dir` with `node` first on PATH, from `registry`
 * only, then the probe files; `withTypescript`, TypeScript too, and its probes and configs.
 */
export async function installConsumerApp(
  dir: string,
  node: string,
  released: readonly Released[],
  registry: LocalRegistry,
  { withTypescript }: { withTypescript: boolean },
): Promise<ConsumerApp> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "downstream-app", version: "1.0.0", private: true }),
  );
  const env = { ...process.env, ...registry.env, PATH: `${path.dirname(node)}:${process.env.PATH ?? ""}` };
  await npm(["install", ...released.map(installSpec), ...(withTypescript ? TYPESCRIPT_TOOLS : [])], {
    cwd: dir,
    env,
    timeoutMs: 600_000,
  });

  const installed = new Map<string, { version: string; bin?: Record<string, string> }>();
  const entryPoints: InstalledEntryPoints[] = [];
  for (const { name } of released) {
    const manifest = JSON.parse(
      await readFile(path.join(dir, "node_modules", name, "package.json"), "utf8"),
    ) as {
      version: string;
      bin?: Record<string, string>;
      exports: Record<string, unknown>;
    };
    installed.set(name, manifest);
    entryPoints.push({ name, subpaths: Object.keys(manifest.exports) });
  }
  const all = specifiers(entryPoints);
  if (withTypescript) await writeTypescriptProbes(dir, all);
  await writeFile(path.join(dir, "probe.mjs"), esmProbe(all));
  await writeFile(path.join(dir, "probe.cjs"), cjsProbe(all));

  return {
    dir,
    node,
    installed,
    runFile: (file) => run(node, [file], { cwd: dir, env }),
    typecheck: (config) =>
      run(node, [path.join(dir, "node_modules/typescript/bin/tsc"), "-p", config], { cwd: dir, env }),
    runBin(bin, args) {
      for (const [name, manifest] of installed) {
        const file = manifest.bin?.[bin];
        if (file !== undefined)
          return run(node, [path.join(dir, "node_modules", name, file), ...args], { cwd: dir, env });
      }
      throw new Error(`no installed package has the bin ${bin}`);
    },
  };
}
