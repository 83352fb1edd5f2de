import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";

/** SHA-256 (hex) of the canonical JSON of a command: the journal's identity check for a reused commandId. */
export function commandFingerprint(command: unknown): string {
  return createHash("sha256").update(canonicalJson(command), "utf8").digest("hex");
}

/** The fields of upstream's serialized `Command`, in its order (the digest sorts them anyway). */
const WIRE_COMMAND_FIELDS = [
  "schema",
  "commandId",
  "controllerSeq",
  "type",
  "issuedAt",
  "deadlineAt",
  "precondition",
  "payload",
] as const;

/**
 * Upstream's `processedCommandFingerprints` entry for a delivered command: the fingerprint of the
 * command as upstream's runner serializes it (its `Command`, these fields only, an absent one
 * null, as `deadlineAt` and `precondition` are when the server leaves them out). The Paperclip
 * server recomputes it from the command it sent and accepts a journalled receipt only when the two
 * are equal (`completedMaintenanceTerminalReceipt`). Fields it does not carry do not count: a
 * redelivery differing only in them is the same command, as it is to upstream's runner.
 */
export function wireCommandFingerprint(command: Readonly<Record<string, unknown>>): string {
  return commandFingerprint(
    Object.fromEntries(
      WIRE_COMMAND_FIELDS.map((name) => [
        name,
        Object.hasOwn(command, name) ? (command[name] ?? null) : null,
      ]),
    ),
  );
}
