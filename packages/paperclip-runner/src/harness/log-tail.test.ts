import { describe, expect, it } from "vitest";
import { LogTail } from "./log-tail.js";

describe("LogTail", () => {
  it("keeps only the newest lines within the line bound", () => {
    const tail = new LogTail({ maxLines: 3, maxBytes: 1000 });
    for (let index = 0; index < 10; index += 1) tail.push(`line ${index}`);
    expect(tail.snapshot()).toEqual({
      lines: ["line 7", "line 8", "line 9"],
      retainedBytes: 18,
      droppedLines: 7,
    });
  });

  it("keeps the byte bound, cutting a line longer than the bound itself", () => {
    const tail = new LogTail({ maxLines: 100, maxBytes: 64 });
    tail.push("x".repeat(100));
    expect(tail.snapshot().lines[0]?.endsWith("…[truncated]")).toBe(true);
    for (let index = 0; index < 5; index += 1) tail.push("y".repeat(20));
    const snapshot = tail.snapshot();
    expect(snapshot.lines).toEqual(["y".repeat(20), "y".repeat(20), "y".repeat(20)]);
    expect(snapshot.retainedBytes).toBe(60);
    expect(snapshot.droppedLines).toBe(3);
  });

  it("redacts each line, and a private key spread over lines as a whole", () => {
    const tail = new LogTail({ maxLines: 32, maxBytes: 16384 });
    tail.push("Authorization: Bearer abcdefghijklmnop");
    tail.push("-----BEGIN RSA PRIVATE KEY-----");
    tail.push("MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB");
    tail.push("-----END RSA PRIVATE KEY-----");
    tail.push("after the key");
    const text = tail.snapshot().lines.join("\n");
    expect(text).not.toContain("abcdefghijklmnop");
    expect(text).not.toContain("MIIEowIBAAKCAQEA");
    expect(tail.snapshot().lines.at(-1)).toBe("after the key");
  });

  it("masks the values it was given wherever a line holds them, a longer one whole", () => {
    const tail = new LogTail({ maxLines: 32, maxBytes: 16384 }, [
      "correct-horse-battery-9431",
      "battery-9431",
    ]);
    tail.push("key=correct-horse-battery-9431 and again:correct-horse-battery-9431.");
    tail.push("only the short one: battery-9431");
    expect(tail.snapshot().lines).toEqual([
      "key=[REDACTED] and again:[REDACTED].",
      "only the short one: [REDACTED]",
    ]);
  });
});
