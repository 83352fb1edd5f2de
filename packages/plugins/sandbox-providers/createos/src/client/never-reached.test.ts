import { describe, expect, it } from "vitest";
import { neverReached } from "./never-reached.js";

describe("neverReached", () => {
  it("knows a refused or unresolved connection, directly or as fetch's cause", () => {
    const refused = Object.assign(new Error("connect"), { code: "ECONNREFUSED" });
    expect(neverReached(refused)).toBe(true);
    expect(neverReached(new TypeError("fetch failed", { cause: refused }))).toBe(true);
    expect(neverReached(Object.assign(new Error("dns"), { code: "ENOTFOUND" }))).toBe(true);
  });

  it("does not take a failure after the connection was made for one", () => {
    expect(neverReached(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(false);
    expect(neverReached(new Error("no code"))).toBe(false);
    expect(neverReached(undefined)).toBe(false);
  });
});
