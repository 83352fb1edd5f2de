import { chmod } from "node:fs/promises";
import type { Socket } from "node:net";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { buildStaticFixture, hostSink } from "./attack-support.js";
import { cliOnSocket, loopbackConnection } from "./cli-on-socket.js";
import { cleanupAll } from "./sandbox-support.js";
import { CLI_SCOPE_FLAGS } from "./scope-matrix.js";

afterEach(cleanupAll);

/**
 * A TCP connection to a loopback server that greets it with one line and keeps what comes
 * back, reading only after `readAfterMs` (the socket's buffers fill first).
 */
async function greetingConnection(readAfterMs = 0): Promise<{ socket: Socket; received: () => string }> {
  let received = "";
  const socket = await loopbackConnection((peer) => {
    peer.write("greeting\n");
    peer.pause();
    const timer = setTimeout(() => {
      peer.on("data", (chunk: Buffer) => {
        received += chunk.toString();
      });
      peer.resume();
    }, readAfterMs);
    peer.on("close", () => clearTimeout(timer));
  });
  return { socket, received: () => received };
}

describe("the caller's stdio, when the CLI is given a TCP socket", () => {
  it("lets no program connect it elsewhere, and still carries its input and output, in every scope", async () => {
    const ws = tempDirForTest("pc-stdio-socket-", { base: "/var/tmp" });
    await chmod(ws, 0o755);
    const attack = await buildStaticFixture("reconnect-stdio", ws);
    const canary = await hostSink();
    for (const [name, flags] of Object.entries(CLI_SCOPE_FLAGS)) {
      const caller = await greetingConnection();
      const program = `head -n 1; ${attack} 1 ${canary.port}; ${attack} 0 ${canary.port}`;
      const result = await cliOnSocket(
        [...flags, "--workspace", ws, "--", "sh", "-c", program],
        caller.socket,
      );
      expect(result.code, `${name}: ${result.stderr}`).toBe(1);
      expect(result.stderr, name).not.toContain("connect=ok");
      expect(caller.received(), name).toBe("greeting\n");
    }
    expect(canary.hits()).toEqual({ connections: 0, bytes: "" });
  }, 120_000);

  it("carries every byte of a large output to a socket the caller made non-blocking", async () => {
    const ws = tempDirForTest("pc-stdio-socket-", { base: "/var/tmp" });
    // A Node parent's socket is non-blocking, where a write that finds it full gets EAGAIN.
    const caller = await greetingConnection(500);
    const bytes = 8 * 1024 * 1024;
    const result = await cliOnSocket(
      ["--workspace", ws, "--", "head", "-c", String(bytes), "/dev/zero"],
      caller.socket,
    );
    expect(result).toEqual({ code: 0, stderr: "" });
    await expect.poll(() => caller.received().length, { timeout: 10_000 }).toBe(bytes);
  }, 60_000);
});
