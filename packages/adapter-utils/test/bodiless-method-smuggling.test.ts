import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, rawLoopbackServer, runNodeInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * A GET or HEAD with a chunked body: the proxy drops `Transfer-Encoding`
 * (hop-by-hop), and Node sends no framing of its own for those methods, so the
 * decoded body used to reach the allowed upstream as raw bytes after the head,
 * where it parses as a second request that skipped the proxy's Host rewrite and
 * its log. A `Content-Length` body did the same once `Connection` (or
 * `Proxy-Connection`) named `Content-Length`, as the proxy dropped every header
 * those list; and either framing did past 2000 other headers, which Node's parser
 * framed the body by but did not hand over. The upstream here is a raw TCP sink recording every byte; it answers
 * once it has seen either the end of a chunked body or the smuggled request.
 */

const SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: internal.invalid\r\n\r\n";

async function rawSink(): Promise<{ port: number; received: string[] }> {
  const received: string[] = [];
  const port = await rawLoopbackServer((socket) => {
    const index = received.push("") - 1;
    let answered = false;
    socket.on("data", (chunk) => {
      received[index] += chunk.toString("latin1");
      const seen = received[index]!;
      if (answered || !(seen.includes("\r\n0\r\n\r\n") || seen.includes("/smuggled"))) return;
      answered = true;
      socket.end("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
  });
  return { port, received };
}

/** Request lines the upstream's parser would see: the head, then whatever follows an unframed body. */
function requestLinesAtMessageStarts(raw: string): string[] {
  const headEnd = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, headEnd);
  const rest = raw.slice(headEnd + 4);
  const lines = [head.split("\r\n")[0]!];
  const framed = /\r\n(transfer-encoding:\s*chunked|content-length:\s*[1-9])/i.test(head);
  if (!framed && rest.length > 0) lines.push(rest.split("\r\n")[0]!);
  return lines;
}

const LENGTH = Buffer.byteLength(SMUGGLED);
const TWO_THOUSAND_HEADERS = "a:\r\n".repeat(2_000);

/** A request whose body is `SMUGGLED`, chunked or not, after the header lines `headers`. */
function requestWithBody(method: string, port: number, chunked: boolean, headers: string): string {
  const body = chunked ? `${LENGTH.toString(16)}\r\n${SMUGGLED}\r\n0\r\n\r\n` : SMUGGLED;
  return `${method} http://127.0.0.1:${port}/first HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}\r\n${body}`;
}

describe("bodiless methods with a body", () => {
  it.each([
    ["GET", "chunked", true, "Transfer-Encoding: chunked\r\n"],
    ["HEAD", "chunked", true, "Transfer-Encoding: chunked\r\n"],
    [
      "GET",
      "Content-Length named in Connection",
      false,
      `Content-Length: ${LENGTH}\r\nConnection: close, Content-Length\r\n`,
    ],
    [
      "OPTIONS",
      "Content-Length named in Connection",
      false,
      `Content-Length: ${LENGTH}\r\nConnection: content-length\r\n`,
    ],
    [
      "HEAD",
      "Content-Length named in Proxy-Connection",
      false,
      `Content-Length: ${LENGTH}\r\nProxy-Connection: Content-Length\r\n`,
    ],
    [
      "GET",
      "Content-Length past 2000 headers",
      false,
      `${TWO_THOUSAND_HEADERS}Content-Length: ${LENGTH}\r\n`,
    ],
    ["GET", "chunked past 2000 headers", true, `${TWO_THOUSAND_HEADERS}Transfer-Encoding: chunked\r\n`],
  ] as const)(
    "%s, %s: the body reaches the upstream framed, never as a second request",
    async (method, _framing, chunked, headers) => {
      const { port, received } = await rawSink();
      const request = requestWithBody(method, port, chunked, headers);
      const program = `
      const socket = require("node:net").connect(31337, "127.0.0.1", () => socket.end(${JSON.stringify(request)}));
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk));
      socket.on("close", () => console.log(answer.split("\\r\\n")[0]));
      socket.on("error", (error) => console.log(error.code));`;
      const result = await runNodeInSandbox(program, {
        workspaceDir: await scratchDir(),
        networkScope: "allowlist",
        networkAllowlist: [`127.0.0.1:${port}`],
      });
      expect(result.exitCode).toBe(0);
      expect(received).toHaveLength(1);
      expect(requestLinesAtMessageStarts(received[0]!)).toEqual([`${method} /first HTTP/1.1`]);
    },
  );
});
