import { describe, expect, it } from "vitest";
import { LogTail } from "./log-tail.js";

describe("LogTail", () => {
  it("keeps only the newest lines within the line bound", () => {
    const tail = new LogTail({ maxLines: 3, maxBytes: 1000, maxLineBytes: 100 });
    for (let index = 0; index < 10; index += 1) tail.push(`line ${index}`);
    expect(tail.snapshot()).toEqual({ lines: ["line 7", "line 8", "line 9"], droppedLines: 7 });
  });

  it("keeps the byte bound, cutting long lines first", () => {
    const tail = new LogTail({ maxLines: 100, maxBytes: 64, maxLineBytes: 30 });
    for (let index = 0; index < 5; index += 1) tail.push("x".repeat(100));
    const { lines } = tail.snapshot();
    expect(lines.every((line) => Buffer.byteLength(line) <= 30 && line.endsWith("…[truncated]"))).toBe(true);
    expect(lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0)).toBeLessThanOrEqual(64);
  });

  it("redacts each line, and a private key spread over lines as a whole", () => {
    const tail = new LogTail();
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
});
