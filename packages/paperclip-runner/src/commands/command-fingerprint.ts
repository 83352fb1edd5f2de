import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";

/** SHA-256 (hex) of the canonical JSON of a command: the journal's identity check for a reused commandId. */
export function commandFingerprint(command: unknown): string {
  return createHash("sha256").update(canonicalJson(command), "utf8").digest("hex");
}
