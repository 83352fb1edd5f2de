import { chmod, cp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { wireCommandFingerprint } from "../src/commands/command-fingerprint.js";
import { INDETERMINATE_MESSAGE } from "../src/durable/state/command-journal.js";
import { handMadeServer, PeerConnection } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET, launchRunner } from "./helpers/hand-made-runner.js";

// A state directory the runner as it was on 2026-12-06 (commit b08846a7) left: the hand-made
// server's `run.prepare` answered, then a `runner.drain` journalled pending and the runner
// SIGKILLed at that write (`fixtures/durable-state-2026-12-06/`, the built-in scripted harness).
// Its `processedCommands` holds whole records (`{commandId, controllerSeq, type, fingerprint,
// status, result}`), fingerprints over the commands as received. The runner of today opens it,
// writes it back in upstream's shape (`processedCommands` the results as sent, no upstream digest
// claimed for those fingerprints), and answers the journalled commands from it as before.
const FIXTURE = join(import.meta.dirname, "fixtures", "durable-state-2026-12-06");

/** The fields of `runner-state.json` read here (as the server would read them). */
interface StateFile {
  readonly processedCommands: Record<string, Record<string, unknown>>;
  readonly processedCommandFingerprints?: Record<string, string>;
  readonly commandJournal?: Record<string, Record<string, unknown>>;
}

const fileOf = async (stateDir: string) =>
  JSON.parse(await readFile(join(stateDir, "runner-state.json"), "utf8")) as StateFile;

describe("a durable state file written before the journal took upstream's shape", { timeout: 30_000 }, () => {
  it("is read, written back in the current shape, and its commands answered from it, at most once", async () => {
    const stateDir = join(tempDirForTest(), "state");
    await cp(FIXTURE, stateDir, { recursive: true });
    // As the runner left it: private (a checkout makes it 0755/0644, which the runner refuses).
    for (const dir of [stateDir, join(stateDir, "engine")]) {
      await chmod(dir, 0o700);
      for (const file of await readdir(dir, { withFileTypes: true }))
        if (file.isFile()) await chmod(join(dir, file.name), 0o600);
    }
    const earlier = await fileOf(stateDir);
    expect(earlier.commandJournal).toBeUndefined();
    expect(earlier.processedCommands.drain).toMatchObject({ status: "pending", result: null });
    const prepared = earlier.processedCommands.prepare ?? {};

    const server = await handMadeServer();
    const runner = launchRunner(server.url, [], stateDir);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    // Written back before the welcome: the pending drain indeterminate, the journal in its new shape.
    const reopened = await fileOf(stateDir);
    expect(reopened.processedCommands).toEqual({
      prepare: prepared.result,
      drain: {
        commandId: "drain",
        commandType: "runner.drain",
        controllerSeq: 2,
        status: "indeterminate",
        message: INDETERMINATE_MESSAGE,
        result: null,
      },
    });
    expect(reopened.processedCommandFingerprints).toEqual({});
    expect(reopened.commandJournal).toEqual({
      prepare: {
        controllerSeq: 1,
        type: "run.prepare",
        status: "done",
        receivedFingerprint: prepared.fingerprint,
      },
      drain: {
        controllerSeq: 2,
        type: "runner.drain",
        status: "indeterminate",
        receivedFingerprint: earlier.processedCommands.drain?.fingerprint,
      },
    });

    const drain = { commandId: "drain", controllerSeq: 2, type: "runner.drain" };
    conn.welcome({ pendingCommands: [PeerConnection.command(drain)] });
    expect(await conn.resultOf("drain")).toEqual(reopened.processedCommands.drain);
    // The same command again: the stored result, byte for byte (the fingerprint it was taken with).
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await conn.resultOf("prepare")).toEqual(prepared.result);
    // Its id with other content is refused, as before.
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare", payload: { other: 1 } });
    expect(await conn.resultOf("prepare", 2)).toMatchObject({
      status: "rejected",
      message: "commandId was reused with different data",
    });
    // A new command is journalled with upstream's digest.
    const next = { commandId: "drain-2", controllerSeq: 3, type: "runner.drain" };
    conn.sendCommand(next);
    expect(await conn.resultOf("drain-2")).toMatchObject({ status: "completed" });
    const after = await fileOf(stateDir);
    expect(after.processedCommandFingerprints).toEqual({
      "drain-2": wireCommandFingerprint(PeerConnection.command(next)),
    });
    expect(after.commandJournal?.["drain-2"]).toEqual({
      controllerSeq: 3,
      type: "runner.drain",
      status: "done",
    });
    expect(after.processedCommands.prepare).toEqual(prepared.result);
    runner.child.kill("SIGKILL");
    await runner.exited;
  });
});
