import { chmod } from "node:fs/promises";
import type { Socket } from "node:net";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { buildStaticFixture, hostSink, runWhileHostActs } from "./attack-support.js";
import { cliOnSocket, loopbackConnection } from "./cli-on-socket.js";
import { cleanupAll, exec, packageDir } from "./sandbox-support.js";

afterEach(cleanupAll);

const bin = path.join(packageDir, "bin", "paperclip-sandbox.js");

/**
 * A program of the host's network namespace (here a workspace-scope run without a network
 * scope; any local user can do the same) that lists, in `/proc/net/unix`, the TCP socket
 * whose local port is `PORT` as a connected Unix stream socket: the kernel writes a bound
 * socket's name there as it is, newlines included, so an abstract name can hold whole lines.
 */
const forger = (localPort: number) => `
  const fs = require("node:fs");
  const port = (${localPort}).toString(16).toUpperCase().padStart(4, "0");
  const line = fs.readFileSync("/proc/net/tcp", "utf8").split("\\n").find((l) => l.trim().split(/\\s+/)[1]?.endsWith(":" + port));
  const inode = line.trim().split(/\\s+/)[9];
  // The space ends the inode's field before the rest of the name (NULs, written as @).
  const name = "\\0x\\n0000000000000000: 00000002 00000000 00000000 0001 03 " + inode + " ";
  require("node:net").createServer().listen(name, () => {
    console.log("forged " + inode);
    const wait = setInterval(() => { if (fs.existsSync("go-on")) { clearInterval(wait); process.exit(0); } }, 20);
  });
`;

/** A TCP connection to a loopback server that keeps what comes back. */
async function callerConnection(): Promise<{ socket: Socket; received: () => string }> {
  let received = "";
  const socket = await loopbackConnection((peer) => {
    peer.on("data", (chunk: Buffer) => {
      received += chunk.toString();
    });
  });
  return { socket, received: () => received };
}

describe("the caller's stdio socket", () => {
  it("is not passed on when another process lists it in /proc/net/unix as a connected Unix socket", async () => {
    const base = tempDirForTest("pc-stdio-forged-", { base: "/var/tmp" });
    await chmod(base, 0o755);
    const attack = await buildStaticFixture("reconnect-stdio", base);
    const canary = await hostSink();
    const caller = await callerConnection();
    const forgerWs = tempDirForTest("pc-stdio-forger-", { base: "/var/tmp" });
    const { stdout, acted } = await runWhileHostActs(
      forgerWs,
      { filesystemScope: "workspace" },
      process.execPath,
      ["-e", forger(caller.socket.localPort!)],
      {
        ready: /forged \d+/,
        goOn: path.join(forgerWs, "go-on"),
        hostAct: () =>
          cliOnSocket(["--workspace", base, "--", attack, "1", String(canary.port)], caller.socket),
      },
    );
    expect(stdout).toMatch(/^forged \d+\n$/);
    expect(acted?.stderr).not.toContain("connect=ok");
    expect(acted?.code, acted?.stderr).toBe(1);
    expect(canary.hits()).toEqual({ connections: 0, bytes: "" });
    expect(caller.received()).toBe("");
  }, 120_000);

  it("is left to the caller: a program cannot shut down a Node parent's stdout under it", async () => {
    const ws = tempDirForTest("pc-stdio-shutdown-", { base: "/var/tmp" });
    const attack = await buildStaticFixture("shutdown-stdio", ws);
    // A Node parent's "pipe" stdio is a connected Unix socket pair; the shell writes again after the run.
    const cli = [process.execPath, bin, "--workspace", ws, "--", attack].map(shellQuote).join(" ");
    const ended = await exec("sh", ["-c", `${cli}; echo after the run`]);
    // The program shuts down what it holds (the relay's socket, which ends its output), not the caller's.
    expect(ended.stderr).toMatch(/^shutdown \w+\n$/);
    // A shell killed by SIGPIPE at its echo would end with neither code 0 nor that line.
    expect({ code: ended.code, stdout: ended.stdout }).toEqual({ code: 0, stdout: "after the run\n" });
  }, 60_000);
});
