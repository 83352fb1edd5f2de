import { spawnSync } from "node:child_process";

// The integration tests (test/) run the emulator's processes under bubblewrap (the build is
// test/support/ensure-build.ts's). Checked once, before any of them, so an unmet precondition
// is one clear message instead of dozens of failures.
const PACKAGE = "@paperclipai/plugin-createos";

function unmet(): string[] {
  const missing: string[] = [];
  if (process.platform !== "linux") missing.push(`Linux (this is ${process.platform})`);
  const bwrap = spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-all", "--", "true"], {
    encoding: "utf8",
  });
  if (bwrap.status !== 0) {
    const why = bwrap.error?.message ?? bwrap.stderr.trim();
    missing.push(`bubblewrap that can create namespaces (apt-get install -y bubblewrap): ${why}`);
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
