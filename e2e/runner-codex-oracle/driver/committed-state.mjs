// What the server's control plane committed for one scenario, read from its state file after
// the close. Written for this repository.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const readState = (stateDirectory) =>
  JSON.parse(readFileSync(join(stateDirectory, "control-plane/control-plane-state.json"), "utf8"));

/** The committed PRP events' payloads, in order. */
export const committedEvents = (stateDirectory) =>
  readState(stateDirectory).committedEvents.map((entry) => entry.envelope.payload);

/** What each command the server queued came back with (type, status, the runner's result). */
export const committedCommands = (stateDirectory) =>
  readState(stateDirectory).commands.map(({ type, status, result }) => ({
    type,
    status,
    result: result?.result ?? null,
  }));
