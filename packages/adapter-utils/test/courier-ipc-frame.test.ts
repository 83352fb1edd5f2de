import { spawn } from "node:child_process";
import { connect, createServer, type Socket } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { nativeBridgePath } from "../src/bridge/native-bridge-path.js";
import { cleanupAll, onCleanup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The courier reads Node's IPC channel itself (docs/adapter-utils/native-bridge.md, "The courier and
 * Node's IPC framing"): JSON lines, a handle's descriptor as SCM_RIGHTS beside its
 * {"cmd":"NODE_HANDLE",…} line, and Node sending no next handle before its
 * {"cmd":"NODE_HANDLE_ACK"}. The suite runs on every supported Node major, so this test
 * checks that framing against each one, with no bridge behind the courier.
 */
describe("the courier speaks this Node's IPC framing", () => {
  it("acks each handle (two in a row both send), reads its record, and answers in lines Node parses", async () => {
    const courier = spawn(nativeBridgePath()!, ["--courier"], {
      stdio: ["pipe", "pipe", "ignore", "ipc"],
      serialization: "json",
    });
    const exited = new Promise<void>((resolve) => courier.once("exit", () => resolve()));
    onCleanup(async () => {
      courier.kill("SIGKILL");
      await exited;
    });
    const lines = createInterface({ input: courier.stdout! })[Symbol.asyncIterator]();
    const nextLine = async () => (await lines.next()).value as string;
    expect(await nextLine()).toBe("ready");
    courier.stdin!.end(`${path.join(await scratchDir(), "pass.sock")}\0`);
    expect(await nextLine()).toBe("listening");

    const server = createServer((socket) => socket.on("error", () => {}));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const sockets: Socket[] = [];
    onCleanup(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    const { port } = server.address() as { port: number };
    for (let i = 0; i < 2; i++) {
      const socket = connect(port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      sockets.push(socket);
    }

    const reports: unknown[] = [];
    const threeReports = new Promise<void>((resolve) =>
      courier.on("message", (message) => reports.push(message) === 3 && resolve()),
    );
    const send = (message: object, socket?: Socket) =>
      new Promise<void>((resolve, reject) =>
        courier.send(message, socket, { keepOpen: true }, (error) => (error ? reject(error) : resolve())),
      );
    // Node holds the second handle until the courier acks the first: both callbacks prove the ack.
    await Promise.all([
      send({ id: "00000000000000a1", drainOffset: 0, idleMs: 1000 }, sockets[0]),
      send({ id: "00000000000000b2", drainOffset: 5, idleMs: 1000 }, sockets[1]),
      // A record Node sent without its socket (it had closed): refused all the same.
      send({ id: "00000000000000c3", drainOffset: 0, idleMs: 1000 }),
    ]);
    await threeReports;
    // No bridge is connected, so each is refused by its id: the host would relay it itself.
    expect(reports).toEqual([
      { handoff: "refused", id: "00000000000000a1" },
      { handoff: "refused", id: "00000000000000b2" },
      { handoff: "refused", id: "00000000000000c3" },
    ]);
  });
});
