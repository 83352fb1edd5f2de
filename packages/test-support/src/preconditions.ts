import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** What a package's integration tests (its `test/` folder) need from the machine. */
export interface IntegrationNeeds {
  /** Linux, for namespaces and `/proc`. */
  readonly linux?: boolean;
  /** Root, and why: the reason is shown when the tests run as another user. */
  readonly root?: string;
  /** A bubblewrap that can create namespaces. */
  readonly bubblewrap?: boolean;
  /** Files of the package's build that the tests load (URLs, e.g. `new URL("../dist/index.js", import.meta.url)`). */
  readonly build?: readonly URL[];
}

/** Each unmet need as one line saying what is missing and how to get it. */
export function unmetNeeds(packageName: string, needs: IntegrationNeeds): string[] {
  const missing: string[] = [];
  if (needs.linux && process.platform !== "linux") missing.push(`Linux (this is ${process.platform})`);
  if (needs.root !== undefined && process.getuid?.() !== 0) missing.push(`root (uid 0): ${needs.root}`);
  if (needs.bubblewrap) {
    const bwrap = spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-all", "--", "true"], {
      encoding: "utf8",
    });
    if (bwrap.status !== 0) {
      const why = bwrap.error?.message ?? bwrap.stderr.trim();
      missing.push(`bubblewrap that can create namespaces (bash scripts/provision.sh, as root): ${why}`);
    }
  }
  const unbuilt = (needs.build ?? []).filter((file) => !existsSync(file));
  if (unbuilt.length > 0) {
    const files = unbuilt.map((file) => fileURLToPath(file)).join(", ");
    missing.push(`the build (${files}): pnpm exec turbo run build --filter=${packageName}...`);
  }
  return missing;
}

/**
 * A vitest global setup for a package's integration project: checks every need once, before
 * any test, so an unmet one is one clear message instead of dozens of failures. Tests never
 * build: turbo builds first, and this says what to run when it did not.
 */
export function integrationPreconditions(packageName: string, needs: IntegrationNeeds): () => void {
  return () => {
    const missing = unmetNeeds(packageName, needs);
    if (missing.length === 0) return;
    throw new Error(
      `The integration tests of ${packageName} (test/) need:\n${missing.map((item) => `  - ${item}`).join("\n")}\n` +
        `The unit tests (src/) need none of it: pnpm --filter ${packageName} exec vitest run --project unit`,
    );
  };
}
