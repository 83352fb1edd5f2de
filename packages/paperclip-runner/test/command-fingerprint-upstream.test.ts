import { createHash } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { commandFingerprint, wireCommandFingerprint } from "../src/commands/command-fingerprint.js";
import { commandResult } from "../src/durable/state/command-journal.js";
import { serverToolchainForFile } from "./helpers/codex-durable.js";

// Against the Paperclip server's own code (2026.916.1, loaded on Node 24 with the side-by-side
// files): the canonical JSON it digests commands and results with, and the check its maintenance
// makes of a journalled suspend's receipt (`completedMaintenanceTerminalReceipt`), which recomputes
// upstream's digest of the command it sent and compares it with `processedCommandFingerprints`.
const toolchain = serverToolchainForFile();
type Receipt = (state: Record<string, unknown>) => { readonly commandId: string } | null;
let serverCanonicalJson: (value: unknown) => string;
let completedMaintenanceTerminalReceipt: Receipt;

beforeAll(async () => {
  const vendor = path.join(
    toolchain().serverDir,
    "node_modules/@paperclipai/server/dist/vendor/paperclip-runner",
  );
  const load = (file: string) => import(pathToFileURL(path.join(vendor, file)).href);
  serverCanonicalJson = (await load("control-plane/durable-prp-control-plane.js")).durableRecoveryInternals
    .canonicalJson;
  completedMaintenanceTerminalReceipt = (await load("live/runnerd-codex-transport.js"))
    .runnerdRecoveryInternals.completedMaintenanceTerminalReceipt;
});

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const jsonObject = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
const instant = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString());

/** A `runner.suspend` as the server stores and sends it: the optional fields present or not, extra ones too. */
const suspend = fc
  .record(
    {
      schema: fc.constantFrom("paperclip.prp.command.v1", "paperclip.prp.command.v2"),
      commandId: fc.string({ minLength: 1, maxLength: 160 }),
      controllerSeq: fc.integer({ min: 1, max: 2 ** 40 }),
      issuedAt: instant,
      deadlineAt: instant,
      precondition: jsonObject,
      payload: jsonObject,
      extra: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: ["schema", "commandId", "controllerSeq", "issuedAt", "payload"] },
  )
  .map((fields) => ({ ...fields, type: "runner.suspend" }));

describe("the command digests, against the Paperclip server's own code", { timeout: 60_000 }, () => {
  it("hashes a command's canonical JSON as the server's canonical JSON does", () => {
    fc.assert(
      fc.property(jsonObject, (value) => {
        expect(commandFingerprint(value)).toBe(sha256(serverCanonicalJson(value)));
      }),
    );
  });

  it("journals a suspend's digest that the server's maintenance accepts as upstream's", () => {
    fc.assert(
      fc.property(suspend, (command) => {
        const { commandId, controllerSeq } = command;
        const result = commandResult(command, "completed", "command applied", { status: "completed" });
        const receipt = completedMaintenanceTerminalReceipt({
          runner: {
            lifecycle: "suspended",
            pendingTerminalDelivery: {
              commandId,
              controllerSeq,
              commandType: "runner.suspend",
              lifecycle: "suspended",
            },
            lastControllerCommandSeq: controllerSeq,
            pendingProviderCleanup: null,
            processedCommands: { [commandId]: result },
            processedCommandFingerprints: { [commandId]: wireCommandFingerprint(command) },
          },
          control: { commands: [{ ...command, status: "completed", result }] },
          provider: { lifecycle: "prepared", activeProviderTurnId: null },
        });
        expect(receipt).toMatchObject({ commandId });
      }),
    );
  });
});
