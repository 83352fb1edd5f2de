import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { LocalRegistry } from "./local-registry.js";
import { npm } from "./npm.js";

/**
 * Upstream's published packages under our scope, seeded into the loopback registry as npm
 * has them: `@paperclipai/adapter-utils` is the name ours shares (its `latest` must survive
 * our release); `plugin-sdk` and `shared` are what the CreateOS plugin depends on.
 */
export const UPSTREAM_VERSION = "2026.916.1";
export const UPSTREAM_SEED = ["@paperclipai/shared", "@paperclipai/plugin-sdk", "@paperclipai/adapter-utils"];

/**
 * `npm pack NAME@VERSION…` from `upstreamRegistry` (through npm's own cache, so once per
 * machine), then `npm publish` of those very tarballs to the loopback registry under `latest`.
 */
export async function seedUpstream(
  registry: LocalRegistry,
  workDir: string,
  upstreamRegistry: string,
): Promise<void> {
  const tarballs = path.join(workDir, "upstream-tarballs");
  await mkdir(tarballs, { recursive: true });
  const specs = UPSTREAM_SEED.map((name) => `${name}@${UPSTREAM_VERSION}`);
  const packed = JSON.parse(
    await npm(["pack", ...specs, "--prefer-offline", "--json", "--pack-destination", tarballs], {
      env: { ...process.env, npm_config_registry: upstreamRegistry },
    }),
  ) as { filename: string }[];
  if (packed.length !== specs.length) throw new Error(`npm pack ${specs.join(" ")} packed ${packed.length}`);
  await Promise.all(
    packed.map(({ filename }) =>
      npm(["publish", path.join(tarballs, filename), "--tag", "latest", "--ignore-scripts"], {
        env: { ...process.env, ...registry.env },
      }),
    ),
  );
}
