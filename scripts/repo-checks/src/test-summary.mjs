// The closing lines of scripts/test.sh: one line of counts per step, then the total.
// usage: node scripts/repo-checks/src/test-summary.mjs NAME LOG [NAME LOG]...
// Exits 1 when a test failed or was skipped: a skipped test is a test that proved nothing.
import { readFileSync } from "node:fs";
import { formatTally, tallyVitestLog } from "./vitest-tally.mjs";

const args = process.argv.slice(2);
const total = { passed: 0, failed: 0, skipped: 0 };
for (let index = 0; index + 1 < args.length; index += 2) {
  const tally = tallyVitestLog(readFileSync(/** @type {string} */ (args[index + 1]), "utf8"));
  if (tally.runs === 0) continue;
  console.log(`  ${args[index]}: ${formatTally(tally)} (${tally.runs} vitest runs)`);
  total.passed += tally.passed;
  total.failed += tally.failed;
  total.skipped += tally.skipped;
}
if (total.skipped > 0) console.log(`error: ${total.skipped} tests were skipped; CI runs every test`);
console.log(formatTally(total));
process.exit(total.failed > 0 || total.skipped > 0 ? 1 : 0);
