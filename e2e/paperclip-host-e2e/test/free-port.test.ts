import { describe, expect, it } from "vitest";
import { freePorts, lostPortRace } from "../src/free-port.js";

describe("ports for a server started later", () => {
  it("are distinct", async () => {
    // Picked one after another with nothing held, two ports could be the same one.
    const ports = await freePorts(8);
    expect(new Set(ports).size).toBe(8);
    expect(ports.every((port) => port > 0)).toBe(true);
  });

  it("tell a start that lost its port from one that failed otherwise", () => {
    expect(lostPortRace("Error: listen EADDRINUSE: address already in use 127.0.0.1:41234")).toBe(true);
    expect(lostPortRace('LOG:  could not bind IPv4 address "127.0.0.1": Address already in use')).toBe(true);
    expect(lostPortRace("GET /api/health reports ok: not within 240000 ms")).toBe(false);
  });
});
