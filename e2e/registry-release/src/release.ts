import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { publishablePackages } from "@paperclipai/repo-checks/workspace-packages";
import type { LocalRegistry } from "./local-registry.js";
import { run } from "./npm.js";

/** A package as the release published it. */
export interface Released {
  readonly name: string;
  readonly version: string;
  /** Its declared dist-tag (`publishConfig.tag`, default `latest`). */
  readonly tag: string;
  readonly dir: string;
}

/**
 * Provenance needs the identity of the CI that publishes (OIDC); a loopback registry run has
 * none, so the copy's manifests drop `publishConfig.provenance`. Nothing else differs from a
 * real release.
 */
async function withoutProvenance(repo: string): Promise<void> {
  for (const { dir } of publishablePackages(repo)) {
    const file = path.join(repo, dir, "package.json");
    const manifest = JSON.parse(await readFile(file, "utf8")) as { publishConfig?: Record<string, unknown> };
    delete manifest.publishConfig?.provenance;
    await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/** `pnpm ARGS…` as the README runs it: the pinned pnpm (the root `packageManager`) through npx. */
async function pnpm(repo: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { packageManager } = JSON.parse(await readFile(path.join(repo, "package.json"), "utf8")) as {
    packageManager: string;
  };
  return run("npx", ["-y", packageManager, ...args], { cwd: repo, env, timeoutMs: 900_000 });
}

/**
 * What a release does, in the throwaway copy `repo`: `pnpm version-packages` (changeset
 * version), then `pnpm release` (build, `changeset publish`, dist-tags) to `registry`.
 */
export async function releaseTo(repo: string, registry: LocalRegistry, logDir: string): Promise<Released[]> {
  const env = { ...process.env, ...registry.env };
  const log = async (name: string, output: string) => writeFile(path.join(logDir, `${name}.log`), output);
  await log("version-packages", await pnpm(repo, ["run", "version-packages"], env));
  await withoutProvenance(repo);
  await log("release", await pnpm(repo, ["run", "release"], env));
  return publishablePackages(repo).map(({ dir, manifest }) => ({
    name: manifest.name,
    version: manifest.version,
    tag: (manifest.publishConfig as { tag?: string } | undefined)?.tag ?? "latest",
    dir,
  }));
}
