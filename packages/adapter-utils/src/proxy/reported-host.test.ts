import { describe, expect, it } from "vitest";
import { reportedHost } from "./reported-host.js";

describe("reportedHost", () => {
  it("writes C0, DEL and C1 controls as \\uXXXX, so a logged decision carries no escape sequence", () => {
    expect(reportedHost("a\u009b2Jb")).toBe("a\\u009b2Jb");
    expect(reportedHost("\u009d52;c;aGk=\u0007x")).toBe("\\u009d52;c;aGk=\\u0007x");
    expect(reportedHost("\u001b[31m\u007f")).toBe("\\u001b[31m\\u007f");
  });

  it("keeps printable text, Latin-1 letters included, and cuts it to a hostname's length", () => {
    expect(reportedHost("bücher.de:443")).toBe("bücher.de:443");
    expect(reportedHost("x".repeat(300))).toBe("x".repeat(255));
  });
});
