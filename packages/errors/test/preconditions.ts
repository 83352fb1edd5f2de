import { existsSync } from "node:fs";

// The integration tests (test/) run the built bin and load the built ESM and CJS files.
// Checked once, before any of them, so an unmet precondition is one clear message.
const PACKAGE = "@paperclipai/errors";

export default function checkIntegrationPreconditions(): void {
  const missing: string[] = [];
  if (!existsSync(new URL("../dist/index.cjs", import.meta.url))) {
    missing.push(`the build (dist/): pnpm turbo run build --filter=${PACKAGE}`);
  }
  if (missing.length === 0) return;
  throw new Error(
    `The integration tests of ${PACKAGE} (test/) need:\n${missing.map((item) => `  - ${item}`).join("\n")}\n` +
      `The unit tests (src/) need none of it: pnpm --filter ${PACKAGE} exec vitest run --project unit`,
  );
}
