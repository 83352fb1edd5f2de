import { describe, expect, it } from "vitest";
import { newRuntimeRequestScope, runtimeRequestId } from "./runtime-request-id.js";

// Upstream's ids, committed by its binary with the OS's random bytes fixed to zeros (an
// LD_PRELOAD `getrandom`), for the questions named: the differential test
// `test/runtime-request-id-upstream.test.ts` reads them live the same way.
const ZERO = new Uint8Array(16);

describe("runtimeRequestId", () => {
  it.each([
    [
      "OpenCode's que_1, the first request",
      "turn-1",
      "que_1",
      1n,
      "19b66f450d215fa88471af117231fc61c0bf8231e3fd3f29b62c792df416d233",
    ],
    [
      "OpenCode's que_1 asked again",
      "turn-1",
      "que_1",
      2n,
      "87280223454be27aeaef63972fa7eb7bb194a01c68459853ca53c55631d2f646",
    ],
    [
      "OpenCode's que_2 second",
      "turn-1",
      "que_2",
      2n,
      "03e06b685c1e3d2e7fcc4ad5c2201b1ff5c5d929c1b3feadbcf420fe4664bbfa",
    ],
    [
      "Codex's JSON-RPC srv-1",
      "turn-1",
      "srv-1",
      1n,
      "63f4e36d239194b2cb69f5ce420a7c00c88aa82693e79cbc59c9bf9772f28de7",
    ],
  ])("forms upstream's id for %s", (_name, turn, key, sequence, digest) => {
    expect(runtimeRequestId(ZERO, turn, key, sequence)).toBe(`runtime-request-${digest}`);
  });

  it("differs with each input and with the scope", () => {
    const base = runtimeRequestId(ZERO, "turn-1", "que_1", 1n);
    const others = [
      runtimeRequestId(ZERO, "turn-2", "que_1", 1n),
      runtimeRequestId(ZERO, "turn-1", "que_2", 1n),
      runtimeRequestId(ZERO, "turn-1", "que_1", 2n),
      runtimeRequestId(newRuntimeRequestScope(), "turn-1", "que_1", 1n),
      // The NULs keep the fields apart.
      runtimeRequestId(ZERO, "turn-1q", "ue_1", 1n),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });
});
