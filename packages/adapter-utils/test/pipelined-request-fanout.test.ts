import { afterEach, describe, expect, it } from "vitest";
import type { NetworkDecision } from "../src/proxy/index.js";
import { cleanupAll, rawLoopbackServer, runNodeInSandbox, SETTLE, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * Node's HTTP server hands over every request of a pipelined connection as soon as it
 * parses it, and the proxy started each one upstream at once: one sandbox connection,
 * well inside `maxConnections`, opened an upstream connection (a host descriptor) for
 * every request it wrote. 32 requests of a few bytes each made 32 upstream connections;
 * a few megabytes would take the host process past its descriptor limit.
 */

const REQUESTS = 32;

/** An upstream that holds every request it reads until `release()`, then answers each "ok". */
async function holdingUpstream(): Promise<{ port: number; held: () => number; release: () => void }> {
  const waiting: (() => void)[] = [];
  let heldCount = 0;
  let released = false;
  const port = await rawLoopbackServer((socket) => {
    let seen = "";
    socket.on("data", (chunk) => {
      seen += chunk.toString("latin1");
      for (let end = seen.indexOf("\r\n\r\n"); end !== -1; end = seen.indexOf("\r\n\r\n")) {
        seen = seen.slice(end + 4);
        heldCount += 1;
        const answer = () => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        if (released) answer();
        else waiting.push(answer);
      }
    });
  });
  return {
    port,
    held: () => heldCount,
    release: () => {
      released = true;
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

describe("pipelined requests on one connection", () => {
  it("start no more upstream requests at once than maxConnections", async () => {
    const upstream = await holdingUpstream();
    const target = `127.0.0.1:${upstream.port}`;
    const requests = Array.from(
      { length: REQUESTS },
      (_, i) => `GET http://${target}/${i} HTTP/1.1\r\nHost: ${target}\r\n\r\n`,
    ).join("");
    // Writes every request at once, then prints the status of each answer in order.
    const program = `
      const socket = require("node:net").connect(31337, "127.0.0.1", () => socket.write(${JSON.stringify(requests)}));
      let answers = "";
      const statuses = () => answers.match(/HTTP\\/1\\.1 \\d{3}/g) ?? [];
      socket.on("data", (chunk) => {
        answers += chunk;
        if (statuses().length === ${REQUESTS}) socket.destroy();
      });
      socket.on("close", () => console.log(statuses().map((line) => line.slice(9)).join(" ")));
      socket.on("error", (error) => console.log(error.code));`;
    const decisions: NetworkDecision[] = [];
    const limited = () => decisions.filter((decision) => decision.reason === "connection_limit").length;
    const run = runNodeInSandbox(program, {
      workspaceDir: await scratchDir(),
      networkScope: "allowlist",
      networkAllowlist: [target],
      networkLimits: { maxConnections: 2 },
      onNetworkDecision: (decision) => decisions.push(decision),
    });
    // Every request is judged while the first ones are held: it either reached the upstream or was refused.
    await expect.poll(() => upstream.held() + limited(), SETTLE).toBe(REQUESTS);
    const heldAtOnce = upstream.held();
    upstream.release();
    const result = await run;
    expect(result.exitCode).toBe(0);
    expect(heldAtOnce).toBe(2);
    // The first refused request's answer closes the connection: the rest are never served.
    expect(result.stdout.trim()).toBe("200 200 503");
    expect(decisions.filter((decision) => decision.decision === "allow")).toHaveLength(2);
  });
});
