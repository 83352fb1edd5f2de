import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { LogDelivery, type LogStream } from "./log-delivery.js";

function recorder() {
  const reports: { error: unknown; message: string }[] = [];
  return { reports, report: (error: unknown, message: string) => reports.push({ error, message }) };
}

describe("LogDelivery", () => {
  it("calls onLog one chunk at a time, in order", async () => {
    const calls: string[] = [];
    let active = 0;
    const { reports, report } = recorder();
    const delivery = new LogDelivery({
      onLog: async (stream: LogStream, chunk: string) => {
        active += 1;
        expect(active).toBe(1);
        await Promise.resolve();
        calls.push(`${stream}:${chunk}`);
        active -= 1;
      },
      report,
      stallMs: 60_000,
    });
    void delivery.deliver("stdout", "a");
    void delivery.deliver("stderr", "b");
    await delivery.deliver("stdout", "c");
    expect(calls).toEqual(["stdout:a", "stderr:b", "stdout:c"]);
    expect(reports).toEqual([]);
  });

  it("reports a throwing or rejecting onLog and goes on delivering", async () => {
    const calls: string[] = [];
    const { reports, report } = recorder();
    const delivery = new LogDelivery({
      onLog: (_stream, chunk) => {
        calls.push(chunk);
        if (chunk === "sync") throw new Error("sync failure");
        if (chunk === "async") return Promise.reject(new Error("async failure"));
        return Promise.resolve();
      },
      report,
      stallMs: 60_000,
    });
    void delivery.deliver("stdout", "sync");
    void delivery.deliver("stdout", "async");
    await delivery.deliver("stdout", "fine");
    expect(calls).toEqual(["sync", "async", "fine"]);
    expect(reports.map((entry) => [(entry.error as Error).message, entry.message])).toEqual([
      ["sync failure", "failed to append stdout log chunk"],
      ["async failure", "failed to append stdout log chunk"],
    ]);
  });

  it("abandons a call that never settles and does not call onLog again", async () => {
    const calls: string[] = [];
    const { reports, report } = recorder();
    const delivery = new LogDelivery({
      onLog: (_stream, chunk) => {
        calls.push(chunk);
        return new Promise<void>(() => {});
      },
      report,
      stallMs: 20,
    });
    void delivery.deliver("stderr", "first");
    void delivery.deliver("stdout", "second");
    await delivery.drained();
    expect(calls).toEqual(["first"]);
    expect(delivery.abandoned).toBe(true);
    expect(reports).toHaveLength(1);
    const error = reports[0]!.error;
    expect(PaperclipError.is(error, "ERR_SANDBOX_LOG_CALLBACK_STALLED")).toBe(true);
    expect((error as PaperclipError).message).toBe(
      "onLog did not settle within 20 ms; it is not called again for this run.",
    );
    expect((error as PaperclipError).details).toEqual({ stream: "stderr", stallMs: 20 });
  });

  it("survives a reporter that throws", async () => {
    const delivery = new LogDelivery({
      onLog: () => Promise.reject(new Error("x")),
      report: () => {
        throw new Error("reporter broke");
      },
      stallMs: 60_000,
    });
    await expect(delivery.deliver("stdout", "a")).resolves.toBeUndefined();
  });
});
