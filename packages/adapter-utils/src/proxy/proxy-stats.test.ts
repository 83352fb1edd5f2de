import { describe, expect, it } from "vitest";
import type { NetworkDecision } from "./proxy-context.js";
import { decisionRecorder, newProxyCounters, proxyStats } from "./proxy-stats.js";

const allow: NetworkDecision = { decision: "allow", host: "api.test", port: 443, reason: "allowlist" };
const deny: NetworkDecision = { decision: "deny", host: "10.0.0.1", port: 80, reason: "private_address" };

describe("decisionRecorder", () => {
  it("counts allows and denials and hands the hook a copy of each decision", () => {
    const counters = newProxyCounters();
    const heard: NetworkDecision[] = [];
    const record = decisionRecorder(counters, (decision) => {
      heard.push(decision);
      decision.host = "changed by the hook";
    });
    record(allow);
    record(deny);
    record(deny);
    expect(counters).toMatchObject({ allowed: 1, denied: 2 });
    expect(heard).toHaveLength(3);
    expect(heard[0]).not.toBe(allow);
    expect(allow.host).toBe("api.test");
  });

  it("survives a hook that throws or returns a rejected promise, and no hook at all", async () => {
    const counters = newProxyCounters();
    decisionRecorder(counters, () => {
      throw new Error("audit down");
    })(allow);
    decisionRecorder(counters, (() => Promise.reject(new Error("audit down"))) as never)(deny);
    decisionRecorder(counters, undefined)(deny);
    // A rejection the recorder had not caught would fail the run as unhandled.
    await new Promise((resolve) => setImmediate(resolve));
    expect(counters).toMatchObject({ allowed: 1, denied: 2 });
  });
});

describe("proxyStats", () => {
  it("adds the open connections' bytes to the closed ones'", () => {
    const counters = { ...newProxyCounters(), connections: 5, closedBytesIn: 100, closedBytesOut: 1_000 };
    counters.handedOff = 1;
    const open = [
      { bytesRead: 10, bytesWritten: 20 },
      { bytesRead: 1, bytesWritten: 2 },
    ];
    expect(proxyStats(counters, open, 2)).toEqual({
      connections: 5,
      activeConnections: 2,
      bytesIn: 111,
      bytesOut: 1_022,
      denied: 0,
      allowed: 0,
      handedOff: 1,
    });
  });
});
