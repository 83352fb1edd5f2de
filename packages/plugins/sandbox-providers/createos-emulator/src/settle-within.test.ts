import { describe, expect, it } from "vitest";
import { settleWithin } from "./settle-within.js";

function timers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
}

describe("settleWithin", () => {
  it("gives the promise's value when it comes first, and leaves no timer behind", async () => {
    const before = timers();
    expect(await settleWithin(Promise.resolve("done"), 60_000, "late")).toBe("done");
    expect(timers()).toBe(before);
  });

  it("gives the fallback once the time has passed", async () => {
    expect(await settleWithin(new Promise(() => {}), 10, "late")).toBe("late");
  });

  it("gives the fallback when the signal aborts, or had aborted already", async () => {
    const controller = new AbortController();
    const pending = settleWithin(new Promise(() => {}), 60_000, false, controller.signal);
    controller.abort();
    expect(await pending).toBe(false);
    expect(await settleWithin(new Promise(() => {}), 60_000, false, AbortSignal.abort())).toBe(false);
  });

  it("passes the promise's rejection on", async () => {
    const failure = new Error("failed");
    await expect(settleWithin(Promise.reject(failure), 60_000, "late")).rejects.toBe(failure);
  });
});
