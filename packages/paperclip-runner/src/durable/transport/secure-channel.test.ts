import { createCipheriv } from "node:crypto";
import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import type { SessionKeys } from "./handshake.js";
import { SECURE_FRAME_SCHEMA, SecureChannel } from "./secure-channel.js";

const keys: SessionKeys = {
  sessionId: `sha256:${"1".repeat(64)}`,
  sendKey: Buffer.alloc(32, 1),
  receiveKey: Buffer.alloc(32, 2),
};

/** A frame as the server seals it: its own nonce prefix and direction, the runner's receive key. */
function serverFrame(value: unknown, counter: number, text = JSON.stringify(value)): Record<string, unknown> {
  const nonce = Buffer.alloc(12);
  nonce.write("P3S1", 0, "ascii");
  nonce.writeBigUInt64BE(BigInt(counter), 4);
  const cipher = createCipheriv("aes-256-gcm", keys.receiveKey, nonce);
  cipher.setAAD(Buffer.from(`${SECURE_FRAME_SCHEMA}\0${keys.sessionId}\0core_to_client\0${counter}`));
  const sealed = Buffer.concat([cipher.update(text), cipher.final(), cipher.getAuthTag()]);
  return { schema: SECURE_FRAME_SCHEMA, counter, ciphertext: sealed.toString("hex") };
}

describe("SecureChannel", () => {
  it("opens the server's frames in counter order and numbers its own from 0", () => {
    const channel = new SecureChannel(keys);
    expect(channel.open(serverFrame({ kind: "welcome" }, 0))).toEqual({ kind: "welcome" });
    expect(channel.open(serverFrame({ kind: "ack" }, 1))).toEqual({ kind: "ack" });
    expect(channel.seal({ kind: "event" })).toMatchObject({ schema: SECURE_FRAME_SCHEMA, counter: 0 });
    expect(channel.seal({ kind: "event" })).toMatchObject({ counter: 1 });
  });

  it("refuses a replayed or skipped counter with ERR_RUNNER_DURABLE_FRAME_COUNTER", () => {
    const channel = new SecureChannel(keys);
    const first = serverFrame({ kind: "welcome" }, 0);
    channel.open(first);
    const replayed = caughtSync(() => channel.open(first));
    expect(replayed.code).toBe("ERR_RUNNER_DURABLE_FRAME_COUNTER");
    expect(replayed.message).toBe("secure frame counter out of order: expected 1, got 0");
    expect(caughtSync(() => channel.open(serverFrame({}, 5))).details).toEqual({ expected: 1, received: 5 });
  });

  it("refuses a frame with one changed byte, one sealed for the other direction, or no frame at all", () => {
    const frame = serverFrame({ kind: "command" }, 0);
    const text = String(frame.ciphertext);
    const tampered = {
      ...frame,
      ciphertext: `${text.slice(0, 10)}${text[10] === "0" ? "1" : "0"}${text.slice(11)}`,
    };
    const error = caughtSync(() => new SecureChannel(keys).open(tampered));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(error.details).toEqual({ reason: "authentication" });
    // The runner's own frame, reflected back: other key, other nonce prefix, other direction.
    const reflected = new SecureChannel(keys).seal({ kind: "ack" });
    expect(caughtSync(() => new SecureChannel(keys).open(reflected)).details).toEqual({
      reason: "authentication",
    });
    expect(caughtSync(() => new SecureChannel(keys).open({ kind: "ack" })).details).toEqual({
      reason: "shape",
    });
  });

  it("opens a frame nested 127 levels deep and refuses one 128 deep (upstream's serde_json limit)", () => {
    const nested = (depth: number): string =>
      `{"kind":"command","payload":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    expect(new SecureChannel(keys).open(serverFrame(null, 0, nested(127)))).toMatchObject({
      kind: "command",
    });
    const error = caughtSync(() => new SecureChannel(keys).open(serverFrame(null, 0, nested(128))));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(error.details).toEqual({ reason: "depth" });
  });
});
