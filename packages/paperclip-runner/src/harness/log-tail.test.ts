import { describe, expect, it } from "vitest";
import { droppedLineScan, LogTail } from "./log-tail.js";

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
  it("opens a private key's block at a header in text that passed unread, and closes it at its end", () => {
    const tail = new LogTail({ maxLines: 32, maxBytes: 16384 });
    const scan = droppedLineScan(tail);
    // The header split between two pieces of one dropped line.
    scan.piece(Buffer.from(`${"x".repeat(100)}-----BEGIN PGP PRIV`));
    scan.piece(Buffer.from("ATE KEY BLOCK-----"));
    scan.end();
    tail.note("[a line was dropped]");
    tail.push("lQOYBGNzZXQBCADQkqz0Ph3VQ9q1sVqz8Y2JzH4m7fW4m3eX1d9yM4nCqj2Tb0aQ");
    scan.piece(Buffer.from("-----END PGP PRIVATE KEY BLOCK----- and more"));
    scan.end();
    tail.push("after the key");
    expect(tail.snapshot().lines).toEqual(["[a line was dropped]", "[REDACTED]", "after the key"]);
  });

  it("leaves the block as it was when the text that passed unread holds no marker, and keeps a note as it is", () => {
    const tail = new LogTail({ maxLines: 32, maxBytes: 16384 });
    tail.push("-----BEGIN OPENSSH PRIVATE KEY-----");
    tail.passOver("no marker here, -----BEGIN CERTIFICATE----- neither");
    tail.note("token=abc");
    tail.push("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW");
    expect(tail.snapshot().lines).toEqual(["[REDACTED]", "token=abc", "[REDACTED]"]);
  });
});
