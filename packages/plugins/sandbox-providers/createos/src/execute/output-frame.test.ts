import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import {
  DecodeScratch,
  decodeCanonicalBase64,
  judgeDataFrame,
  parseExitFrame,
  parseFrameLine,
} from "./output-frame.js";

const frame = (seq: unknown, data = "aGk=", stream: unknown = "stdout") => ({
  type: "data",
  seq,
  stream,
  data_base64: data,
});

describe("parseFrameLine", () => {
  it("parses objects and rejects everything else", () => {
    expect(parseFrameLine('{"type":"heartbeat"}')).toEqual({ type: "heartbeat" });
    for (const line of ["", "{", "[]", "1", "null"])
      caughtSync(() => parseFrameLine(line), "ERR_CREATEOS_OUTPUT_INVALID");
  });
  it("keeps unknown types and extra fields, but an object without a type is no frame", () => {
    expect(parseFrameLine('{"type":"progress","x":1}')).toEqual({ type: "progress", x: 1 });
    caughtSync(() => parseFrameLine('{"seq":1,"stream":"stdout"}'), "ERR_CREATEOS_OUTPUT_INVALID");
    caughtSync(() => parseFrameLine('{"type":7}'), "ERR_CREATEOS_OUTPUT_INVALID");
  });
  it("reads an error envelope in the stream as an unsuccessful response", () => {
    caughtSync(
      () => parseFrameLine('{"status":"error","error":{"code":"x"}}'),
      "ERR_CREATEOS_UNSUCCESSFUL_RESPONSE",
    );
  });
});

describe("decodeCanonicalBase64", () => {
  it("accepts canonical padded base64 only", () => {
    expect(decodeCanonicalBase64("aGk=")?.toString()).toBe("hi");
    expect(decodeCanonicalBase64("")?.length).toBe(0);
    for (const text of ["aGk", "aGl=", "aG k=", "aGk=\n", "a===", "****", 5])
      expect(decodeCanonicalBase64(text)).toBeUndefined();
  });

  it("decides as decoding and re-encoding the whole text would, for every kind of damage", () => {
    /** The definition: the text is what its own decoding re-encodes to. */
    const reference = (text: string) => {
      const bytes = Buffer.from(text, "base64");
      return bytes.toString("base64") === text ? bytes : undefined;
    };
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n*.";
    let state = 7;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const scratch = new DecodeScratch();
    for (let round = 0; round < 20_000; round += 1) {
      let text = Buffer.from(
        Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * 256)),
      ).toString("base64");
      // Damage it: replace, insert or drop one character, or none.
      const at = Math.floor(next() * (text.length + 1));
      const character = alphabet[Math.floor(next() * alphabet.length)] as string;
      const damage = Math.floor(next() * 4);
      if (damage === 1) text = text.slice(0, at) + character + text.slice(at + 1);
      if (damage === 2) text = text.slice(0, at) + character + text.slice(at);
      if (damage === 3) text = text.slice(0, at) + text.slice(at + 1);
      expect(decodeCanonicalBase64(text), JSON.stringify(text)).toEqual(reference(text));
      expect(decodeCanonicalBase64(text, scratch), JSON.stringify(text)).toEqual(reference(text));
    }
  });
});

describe("judgeDataFrame", () => {
  it("accepts the next frame", () => {
    const decision = judgeDataFrame(frame(3, "aGk=", "stderr"), 2);
    expect(decision).toEqual({ kind: "next", seq: 3, stream: "stderr", bytes: Buffer.from("hi") });
  });
  it("skips replayed duplicates before checking their payload", () => {
    expect(judgeDataFrame(frame(2, "!!"), 2)).toEqual({ kind: "duplicate" });
  });
  it("rejects invalid sequence numbers", () => {
    for (const seq of [0, -1, 1.5, "1", null, Number.MAX_SAFE_INTEGER + 1]) {
      caughtSync(() => judgeDataFrame(frame(seq), 0), "ERR_CREATEOS_SEQUENCE_INVALID");
    }
  });
  it("rejects a gap with the upstream message", () => {
    expect(() => judgeDataFrame(frame(5), 3)).toThrow("CreateOS process output has a sequence gap.");
  });
  it("rejects a bad stream or payload with the upstream message", () => {
    expect(() => judgeDataFrame(frame(1, "aGk=", "stdin"), 0)).toThrow("CreateOS process output is invalid.");
    expect(() => judgeDataFrame(frame(1, "aGk"), 0)).toThrow("CreateOS process output is invalid.");
  });
});

describe("parseExitFrame", () => {
  it("accepts the signal names real servers use, nothing long or spaced", () => {
    for (const name of ["SIGKILL", "KILL", "SIGRTMIN+3", "killed", "SIG_9"])
      expect(parseExitFrame({ type: "exit", signal: name }).signal).toBe(name);
    for (const name of ["", "kill -9", "x".repeat(33), "SIG\nKILL", 9])
      caughtSync(() => parseExitFrame({ type: "exit", signal: name }), "ERR_CREATEOS_OUTPUT_INVALID");
  });

  it("reads the exit code and/or signal", () => {
    expect(parseExitFrame({ type: "exit", exit_code: 3 })).toEqual({ exitCode: 3, signal: null });
    expect(parseExitFrame({ type: "exit", signal: "SIGKILL" })).toEqual({
      exitCode: null,
      signal: "SIGKILL",
    });
    expect(parseExitFrame({ type: "exit", exit_code: 137, signal: "SIGKILL" })).toEqual({
      exitCode: 137,
      signal: "SIGKILL",
    });
  });
  it("rejects a malformed exit", () => {
    for (const raw of [{}, { exit_code: "1" }, { exit_code: 1.5 }, { signal: "kill -9" }]) {
      caughtSync(() => parseExitFrame(raw), "ERR_CREATEOS_OUTPUT_INVALID");
    }
  });
});
