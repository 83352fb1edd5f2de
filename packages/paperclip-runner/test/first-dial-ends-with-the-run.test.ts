import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { parseFlags } from "../src/cli/flags.js";
import { runDurableMode } from "../src/durable/run-durable-mode.js";
import { HAND_MADE_RUNNER_FLAGS } from "./helpers/hand-made-identity.js";
import { HAND_MADE_TICKET } from "./helpers/hand-made-runner.js";

// Durable mode dials its first connection while the state it read is written back (`dialAhead`).
// A run that fails before it takes that connection (here: the state directory names a provider
// this runner does not execute) must not leave it opening: it used to stay until the WebSocket
// handshake's 5 s timeout, or open then, after runDurableMode had returned.

/** Far past a loopback close, well short of the 5 s handshake timeout that ended the old dial. */
const CLOSE_SEEN_MS = 1_000;

/** A TCP server that takes connections and never answers their upgrade request. */
async function silentServer(): Promise<{
  readonly url: string;
  readonly open: () => number;
  readonly accepted: () => number;
}> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    // Read (and drop) the upgrade request, so that the peer's close is seen.
    socket.resume();
    socket.on("error", () => undefined);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as { port: number };
  return { url: `ws://127.0.0.1:${port}/connect`, open: () => sockets.size, accepted: () => accepted };
}

describe("durable mode's first connection", () => {
  it("is closed with a run that fails before taking it", async () => {
    const server = await silentServer();
    const stateDir = join(tempDirForTest("runner-first-dial-"), "state");
    await mkdir(stateDir, { mode: 0o700 });
    await writeFile(join(stateDir, "acpx-provider-state.json"), "{}\n", { mode: 0o600 });
    const stderr = new PassThrough();
    stderr.resume();
    const flags = parseFlags([
      "--connect-url",
      server.url,
      "--state-dir",
      stateDir,
      ...HAND_MADE_RUNNER_FLAGS,
    ]);
    await expect(
      runDurableMode(
        flags,
        { stdin: new PassThrough(), stdout: new PassThrough(), stderr },
        HAND_MADE_TICKET,
      ),
    ).rejects.toMatchObject({ code: "ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED" });
    await delay(CLOSE_SEEN_MS);
    // The dial reached the server (else there was nothing to close), and it is closed.
    expect(server.accepted()).toBe(1);
    expect(server.open()).toBe(0);
  });
});
