import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { onCleanup, packageDir, rawLoopbackServer } from "./sandbox-support.js";

// The CLI run on a TCP socket of the caller's, as `socat EXEC:`, inetd or `> /dev/tcp/…` run it.

const bin = path.join(packageDir, "bin", "paperclip-sandbox.js");

/** A TCP connection of this process to a loopback server whose side `serve` handles; destroyed at cleanup. */
export async function loopbackConnection(serve: (peer: Socket) => void): Promise<Socket> {
  const port = await rawLoopbackServer(serve);
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  onCleanup(async () => socket.destroy());
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return socket;
}

/** Runs the CLI with `socket` as its stdin and stdout; its exit code and stderr. */
export function cliOnSocket(
  args: readonly string[],
  socket: Socket,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: [socket, socket, "pipe"] });
    onCleanup(async () => child.kill("SIGKILL"));
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("close", (code) => resolve({ code, stderr }));
  });
}
