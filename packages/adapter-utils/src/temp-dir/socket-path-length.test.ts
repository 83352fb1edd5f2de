import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { assertUnixSocketPathLength } from "./socket-path-length.js";

describe("assertUnixSocketPathLength", () => {
  it("accepts exactly 107 bytes", () => {
    expect(() => assertUnixSocketPathLength(`/${"a".repeat(106)}`)).not.toThrow();
  });

  it("rejects 108 bytes with upstream's message", () => {
    const socketPath = `/${"a".repeat(107)}`;
    try {
      assertUnixSocketPathLength(socketPath);
      expect.unreachable();
    } catch (error) {
      expect(PaperclipError.is(error, "ERR_SANDBOX_SOCKET_PATH_TOO_LONG")).toBe(true);
      expect((error as Error).message).toBe(
        `Paperclip sandbox proxy socket path is 108 bytes, exceeding the Linux limit of 107: ${socketPath}`,
      );
    }
  });

  it("counts UTF-8 bytes, not characters", () => {
    // 54 characters of two bytes each plus the slash: 109 bytes in 55 characters.
    expect(() => assertUnixSocketPathLength(`/${"é".repeat(54)}`)).toThrow("is 109 bytes");
  });
});
