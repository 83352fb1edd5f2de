// The closing lines of scripts/test.sh: one line of counts per step, then the total, all read
// from the JSON reports vitest wrote (each package's .vitest-report/<tag>.json).
// usage: node scripts/repo-checks/src/test-summary.mjs NAME TAG [NAME TAG]...
// Exits 1 when a test failed or was skipped: a skipped test is a test that proved nothing.
import path from "node:path";
import { formatTally, tallyVitestReports } from "./vitest-tally.mjs";
import { repoRoot, workspacePackages } from "./workspace-packages.mjs";

const packageDirs = workspacePackages().map((pkg) => path.join(repoRoot, pkg.dir));
const args = process.argv.slice(2);
const total = { passed: 0, failed: 0, skipped: 0 };
for (let index = 0; index + 1 < args.length; index += 2) {
  const tally = tallyVitestReports(packageDirs, /** @type {string} */ (args[index + 1]));
  if (tally.reports === 0) continue;
  console.log(`  ${args[index]}: ${formatTally(tally)} (${tally.reports} vitest reports)`);
  for (const failure of tally.failures) console.log(`    failed: ${failure}`);
  total.passed += tally.passed;
  total.failed += tally.failed;
  total.skipped += tally.skipped;
}
if (total.skipped > 0) console.log(`error: ${total.skipped} tests were skipped; CI runs every test`);
console.log(formatTally(total));
process.exit(total.failed > 0 || total.skipped > 0 ? 1 : 0);
