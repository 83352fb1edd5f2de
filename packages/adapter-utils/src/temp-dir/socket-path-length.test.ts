import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { assertUnixSocketPathLength } from "./socket-path-length.js";

describe("assertUnixSocketPathLength", () => {
  it("accepts exactly 107 bytes", () => {
    expect(() => assertUnixSocketPathLength(`/${"a".repeat(106)}`)).not.toThrow();
  });

  it("rejects 108 bytes with upstream's message", () => {
    const socketPath = `/${"a".repeat(107)}`;
    const error = caughtSync(
      () => assertUnixSocketPathLength(socketPath),
      "ERR_SANDBOX_SOCKET_PATH_TOO_LONG",
    );
    expect(error.message).toBe(
      `Paperclip sandbox proxy socket path is 108 bytes, exceeding the Linux limit of 107: ${socketPath}`,
    );
  });

  it("counts UTF-8 bytes, not characters", () => {
    // 54 characters of two bytes each plus the slash: 109 bytes in 55 characters.
    expect(() => assertUnixSocketPathLength(`/${"é".repeat(54)}`)).toThrow("is 109 bytes");
  });
});
