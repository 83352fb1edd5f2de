import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

// The integration tests (test/) run the built daemon, chown directories to uid 65534 and run
// the bin as that user, and start harnesses in the adapter-utils sandbox. Checked once, before
// any of them, so an unmet precondition is one clear message instead of dozens of failures.
const PACKAGE = "@paperclipai/paperclip-runner";

function unmet(): string[] {
  const missing: string[] = [];
  if (process.platform !== "linux") missing.push(`Linux (this is ${process.platform})`);
  if (process.getuid?.() !== 0)
    missing.push("root (uid 0): tests chown directories and run the bin as uid 65534");
  const bwrap = spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-all", "--", "true"], {
    encoding: "utf8",
  });
  if (bwrap.status !== 0) {
    const why = bwrap.error?.message ?? bwrap.stderr.trim();
    missing.push(`bubblewrap that can create namespaces (apt-get install -y bubblewrap): ${why}`);
  }
  if (!existsSync(new URL("../dist/index.js", import.meta.url))) {
    missing.push(`the build (dist/): pnpm turbo run build --filter=${PACKAGE}...`);
  }
  return missing;
}

export default function checkIntegrationPreconditions(): void {
  const missing = unmet();
  if (missing.length === 0) return;
  throw new Error(
    `The integration tests of ${PACKAGE} (test/) need:\n${missing.map((item) => `  - ${item}`).join("\n")}\n` +
      `The unit tests (src/) need none of it: pnpm --filter ${PACKAGE} exec vitest run --project unit`,
  );
}
