import { describe, expect, it } from "vitest";
import { FaultBook } from "../fault-book.js";
import { RateLimiter } from "../rate-limiter.js";
import { matchRoute } from "../routes.js";
import { admissionRefusal, keyMatches } from "./admission.js";

const KEY = "test-key";
const create = matchRoute("POST", "/v1/sandboxes");
const caller = { address: "127.0.0.1", apiKey: KEY };

function gate(overrides: { closing?: boolean; limiter?: RateLimiter | null; faults?: FaultBook } = {}) {
  return { closing: false, limiter: null, faults: new FaultBook(), apiKey: KEY, ...overrides };
}

describe("admissionRefusal", () => {
  it("admits a keyed request when nothing else refuses it", () => {
    expect(admissionRefusal(gate(), caller, create)).toBeNull();
  });

  it("refuses during shutdown before anything else, even without a key", () => {
    expect(admissionRefusal(gate({ closing: true }), { ...caller, apiKey: undefined }, create)).toEqual({
      status: 503,
      code: "unavailable",
      message: "The emulator is shutting down.",
    });
  });

  it("rate-limits per address before checking the key, with retry-after", () => {
    const limited = gate({ limiter: new RateLimiter(60, 1, () => 0) });
    expect(admissionRefusal(limited, caller, create)).toBeNull();
    expect(admissionRefusal(limited, { ...caller, apiKey: "wrong" }, create)).toEqual({
      status: 429,
      code: "rate_limited",
      message: "Too many requests.",
      headers: { "retry-after": "1" },
    });
    expect(admissionRefusal(limited, { address: "127.0.0.2", apiKey: KEY }, create)).toBeNull();
  });

  it("plays an injected status on its route (or every route) and notes the fault", () => {
    const faults = new FaultBook();
    faults.add({ kind: "http-status", route: create.route, status: 502, retryAfterSeconds: 7, times: 1 });
    expect(admissionRefusal(gate({ faults }), caller, matchRoute("GET", "/v1/sandboxes/sbx_1"))).toBeNull();
    expect(admissionRefusal(gate({ faults }), caller, create)).toEqual({
      status: 502,
      code: "injected",
      message: "Injected fault.",
      headers: { "retry-after": "7" },
      fault: "http-status",
    });
    expect(admissionRefusal(gate({ faults }), caller, create)).toBeNull();
  });

  it("refuses a missing or wrong key last", () => {
    const unauthorized = { status: 401, code: "unauthorized", message: "A valid X-Api-Key is required." };
    expect(admissionRefusal(gate(), { ...caller, apiKey: undefined }, create)).toEqual(unauthorized);
    expect(admissionRefusal(gate(), { ...caller, apiKey: "test-kez" }, create)).toEqual(unauthorized);
    expect(admissionRefusal(gate(), { ...caller, apiKey: [KEY, KEY] }, create)).toEqual(unauthorized);
  });
});

describe("keyMatches", () => {
  it("accepts only the exact key as a single header value", () => {
    expect(keyMatches(KEY, KEY)).toBe(true);
    expect(keyMatches(`${KEY}x`, KEY)).toBe(false);
    expect(keyMatches(undefined, KEY)).toBe(false);
    expect(keyMatches([KEY], KEY)).toBe(false);
  });
});
