import type * as tr46 from "tr46";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { NetworkDecision } from "../src/proxy/index.js";
import { closeAll, rawExchange, startProxy } from "./proxy-support.js";
import { canaryServer, cleanupAll } from "./sandbox-support.js";

afterEach(async () => {
  await closeAll();
  await cleanupAll();
});

/**
 * Every run's proxy lives in the one host process, so the time it spends on what a sandbox
 * sends is every other run's time too. A host spelling went through UTS #46 whatever its
 * length, and the Punycode steps of IDNA are quadratic in a label's length: one CONNECT line
 * of 15 KB (one `xn--` label, under the 16 KiB head limit) took the host's only thread about
 * 90 ms, and 300 such connections stalled another run's allowed request for 20 s. An ASCII
 * host longer than a domain can be is now refused before IDNA. The mapping is observed, not
 * timed: `toASCII` records the longest input it was given (this file has a worker of its own,
 * vitest.config.ts, so the mock reaches the proxy's module).
 */
const seen = vi.hoisted(() => ({ longestInput: 0 }));

vi.mock("tr46", async (importOriginal) => {
  const actual = await importOriginal<typeof import("tr46")>();
  return {
    ...actual,
    toASCII: (input: string, options?: tr46.ToASCIIOptions) => {
      seen.longestInput = Math.max(seen.longestInput, input.length);
      return actual.toASCII(input, options);
    },
  };
});

/** A valid `xn--` label of about `length` characters whose Punycode decodes to many distinct code points. */
async function longPunycodeLabel(length: number): Promise<string> {
  const { toASCII } = await vi.importActual<typeof import("tr46")>("tr46");
  let unicode = "";
  for (let i = 0; unicode.length < length / 3; i += 1)
    unicode += String.fromCodePoint(0x4e00 + ((i * 7919) % 20000));
  const label = toASCII(unicode, { verifyDNSLength: false })!;
  return label.slice(0, length);
}

describe("a host spelling longer than any domain", () => {
  it("is refused before IDNA, whichever way the sandbox writes it", async () => {
    const canary = await canaryServer();
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: ["example.com"],
      trustedUrls: [],
      onNetworkDecision: (decision) => decisions.push(decision),
      resolver: async () => {
        throw new Error("nothing here is resolved");
      },
    });
    const punycode = await longPunycodeLabel(15_000);
    expect(punycode.length).toBeGreaterThan(14_000);
    const dotted = `${"a.".repeat(7_000)}com`;
    // WHATWG's IPv4 parser takes any number of leading zeros: this is 127.0.0.1.
    const paddedLoopback = `0x${"0".repeat(300)}7f000001`;
    const attempts: [string, string][] = [
      ["CONNECT to one long xn-- label", `CONNECT ${punycode}:443 HTTP/1.1\r\n\r\n`],
      ["GET of one long xn-- label", `GET http://${punycode}/ HTTP/1.1\r\n\r\n`],
      ["CONNECT to thousands of labels", `CONNECT ${dotted}:443 HTTP/1.1\r\n\r\n`],
      ["GET of thousands of labels", `GET http://${dotted}/ HTTP/1.1\r\n\r\n`],
      ["CONNECT to loopback with leading zeros", `CONNECT ${paddedLoopback}:${canary.port} HTTP/1.1\r\n\r\n`],
      ["GET of loopback with leading zeros", `GET http://${paddedLoopback}:${canary.port}/ HTTP/1.1\r\n\r\n`],
    ];
    const responses: string[] = [];
    for (const [, request] of attempts)
      responses.push((await rawExchange(proxy.socketPath, request)).response);
    // The rule's own spelling is the only one IDNA saw; none of the sandbox's reached it.
    expect(seen.longestInput).toBeLessThanOrEqual(254);
    for (const [index, response] of responses.entries())
      expect(response, attempts[index]![0]).toMatch(
        /^HTTP\/1\.1 403 [\s\S]*X-Proxy-Error: invalid_target\r\n/,
      );
    expect(decisions.map((d) => d.reason)).toEqual(attempts.map(() => "invalid_target"));
    expect(canary.hits).toEqual([]);

    // Non-ASCII hosts are not bounded by their length (IDNA may drop characters), so they must
    // not arrive at all: Node's parser refuses bytes above ASCII in the request line.
    const latin1 = "\u00e9\u00e0\u00fc".repeat(4_000);
    for (const request of [
      `CONNECT ${latin1}:443 HTTP/1.1\r\n\r\n`,
      `GET http://${latin1}/ HTTP/1.1\r\n\r\n`,
    ]) {
      const { response } = await rawExchange(proxy.socketPath, Buffer.from(request, "latin1"));
      expect(response).toMatch(/^HTTP\/1\.1 400 [\s\S]*X-Proxy-Error: malformed_request\r\n/);
    }
    expect(seen.longestInput).toBeLessThanOrEqual(254);
  });
});
