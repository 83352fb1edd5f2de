#!/usr/bin/env bash
# The README's test command: installs what it needs, then builds, typechecks, lints,
# tests (unit, integration with real bwrap, consumer smoke of the packed tarballs)
# and checks every package tarball (publint, attw), all through turbo.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/bootstrap.sh

require_node
require_bubblewrap
install_dependencies

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
say "turbo run build typecheck lint test check:package"
status=0
pnpm_cmd exec turbo run build typecheck lint test check:package --output-logs=new-only --concurrency=2 --continue 2>&1 \
  | tee "$log" || status=$?

# One plain closing line for every vitest run in the log (cached runs are replayed too).
node -e '
  const text = require("fs").readFileSync(process.argv[1], "utf8").replace(/\x1b\[[0-9;]*m/g, "");
  let passed = 0, failed = 0;
  for (const m of text.matchAll(/Tests\s+(?:(\d+) failed \| )?(?:\d+ skipped \| )?(\d+) passed/g)) {
    failed += Number(m[1] ?? 0); passed += Number(m[2]);
  }
  for (const m of text.matchAll(/Tests\s+(\d+) failed \((\d+)\)/g)) failed += Number(m[1]);
  console.log(`${passed} passed, ${failed} failed`);
' "$log"
exit "$status"
