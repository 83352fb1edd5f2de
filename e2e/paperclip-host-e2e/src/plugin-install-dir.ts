import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

/** The plugin and the workspace packages it depends on, packed as they are published. */
const PACKAGE_DIRS = ["packages/errors", "packages/plugins/sandbox-providers/createos"] as const;

/**
 * What a user does before `POST /api/plugins/install`: installs the plugin's packed tarball
 * with npm into a directory of its own, and returns the unpacked plugin's absolute path.
 */
export async function installPackedPlugin(workDir: string): Promise<string> {
  const tarballDir = path.join(workDir, "tarballs");
  const installDir = path.join(workDir, "plugins");
  await mkdir(tarballDir, { recursive: true });
  await mkdir(installDir, { recursive: true });
  for (const dir of PACKAGE_DIRS) {
    const packageDir = path.join(REPO_ROOT, dir);
    if (!existsSync(path.join(packageDir, "dist"))) {
      throw new Error(`${dir} is not built; run \`pnpm turbo run build\` first`);
    }
    await run("pnpm", ["pack", "--pack-destination", tarballDir], { cwd: packageDir });
  }
  const tarballs = (await readdir(tarballDir)).map((name) => path.join(tarballDir, name));
  await writeFile(
    path.join(installDir, "package.json"),
    JSON.stringify({ name: "paperclip-plugins", version: "1.0.0", private: true }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], {
    cwd: installDir,
    maxBuffer: 16 * 1024 * 1024,
  });
  return path.join(installDir, "node_modules", "@paperclipai", "plugin-createos");
}
