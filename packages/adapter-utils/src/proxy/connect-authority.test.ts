import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConnectAuthority } from "./connect-authority.js";

describe("parseConnectAuthority", () => {
  it.each([
    ["api.test:443", { kind: "domain", key: "api.test" }, 443],
    ["API.Test.:8443", { kind: "domain", key: "api.test" }, 8443],
    ["[::1]:443", { kind: "ipv6", key: "::1" }, 443],
    ["[0:0:0:0:0:0:0:1]:1", { kind: "ipv6", key: "::1" }, 1],
    ["127.0.0.1:65535", { kind: "ipv4", key: "127.0.0.1" }, 65535],
    ["bücher.de:443", { kind: "domain", key: "xn--bcher-kva.de" }, 443],
  ])("%s parses", (target, host, port) => {
    expect(parseConnectAuthority(target)).toEqual({ ok: true, host, port });
  });

  it.each([
    "api.test",
    ":443",
    "",
    "::1:443",
    "[::1]",
    "a b:443",
    "*.test:443",
    "[zz]:443",
    "user@host:443",
    "/x:1",
  ])("%j is an invalid target", (target) => {
    expect(parseConnectAuthority(target)).toEqual({ ok: false, reason: "invalid_target" });
  });

  it.each([
    "api.test:0",
    "api.test:65536",
    "api.test:99999",
    "api.test:-1",
    "api.test:+1",
    "api.test:0x1bb",
    "api.test: 443",
    "api.test:443 ",
    "api.test:",
    "api.test:1e3",
    "api.test:４４３",
  ])("%j has an invalid port", (target) => {
    expect(parseConnectAuthority(target)).toEqual({ ok: false, reason: "invalid_port" });
  });

  it("never throws and only accepts ports 1-65535", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (host, port) => {
        const result = parseConnectAuthority(`${host}:${port}`);
        if (result.ok) {
          expect(result.port).toBeGreaterThanOrEqual(1);
          expect(result.port).toBeLessThanOrEqual(65535);
          expect(String(result.port)).toBe(String(Number(port)));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("accepts every decimal port in range and rejects every integer outside it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }), (port) => {
        expect(parseConnectAuthority(`a.test:${port}`)).toMatchObject({ ok: true, port });
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 65536 })), (port) => {
        expect(parseConnectAuthority(`a.test:${port}`)).toEqual({ ok: false, reason: "invalid_port" });
      }),
    );
  });
});
