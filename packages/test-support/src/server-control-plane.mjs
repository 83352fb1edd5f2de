// For driver scripts that run on Node 24 as their own process (plain ESM, no build): the real
// server's durable control plane and event validator from its vendored runner code, and the
// digest spawnRunner pins a runner binary by.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** `DurablePrpControlPlane`, `spawnRunner` and `validatePrpEvent` of the server installed at `serverDir`. */
export async function loadServerControlPlane(serverDir) {
  const vendor = join(serverDir, "node_modules/@paperclipai/server/dist/vendor/paperclip-runner");
  const load = (file) => import(pathToFileURL(join(vendor, file)).href);
  const { DurablePrpControlPlane, spawnRunner } = await load("control-plane/durable-prp-control-plane.js");
  const { validatePrpEvent } = await load("protocol/replay-contract.js");
  return { DurablePrpControlPlane, spawnRunner, validatePrpEvent };
}

/** The `sha256:` digest of a file, as the server's launcher names a runner binary. */
export function fileDigest(file) {
  return `sha256:${createHash("sha256").update(readFileSync(file)).digest("hex")}`;
}

/** Prints one record as a JSON line, what the driver reports to its test. */
export function printRecord(record) {
  process.stdout.write(`${JSON.stringify(record)}\n`);
}
