import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { commandFingerprint } from "./command-fingerprint.js";

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, seed));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  const rotated = entries
    .slice(seed % (entries.length || 1))
    .concat(entries.slice(0, seed % (entries.length || 1)));
  return Object.fromEntries(rotated.reverse().map(([key, item]) => [key, shuffleKeys(item, seed + 1)]));
}

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it("sorts integer-like keys with the others, as the server's canonical JSON does", () => {
    // An object lists them first, in numeric order: JSON.stringify would write {"9":…,"10":…,"":…}.
    expect(canonicalJson({ "": 3, "10": 1, "9": 2, a: { "1": undefined, "0": [undefined] } })).toBe(
      '{"":3,"10":1,"9":2,"a":{"0":[null]}}',
    );
  });

  it("gives the same fingerprint whatever the key order, and another one for other data", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(10), (value, seed) => {
        expect(commandFingerprint(shuffleKeys(value, seed))).toBe(commandFingerprint(value));
      }),
    );
    expect(commandFingerprint({ a: 1 })).not.toBe(commandFingerprint({ a: 2 }));
    expect(commandFingerprint({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps a __proto__ key from JSON.parse as data, so it changes the fingerprint", () => {
    const polluted = JSON.parse('{"payload":{"__proto__":{"x":1}}}') as unknown;
    expect(canonicalJson(polluted)).toBe('{"payload":{"__proto__":{"x":1}}}');
    expect(commandFingerprint(polluted)).not.toBe(commandFingerprint({ payload: {} }));
  });
});
