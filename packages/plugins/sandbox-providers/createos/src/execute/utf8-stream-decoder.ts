import { isAscii } from "node:buffer";
import { TextDecoder } from "node:util";
import type { OutputStream } from "./output-frame.js";

const ASCII_LIMIT = 0x80;

/**
 * Decodes each output stream as UTF-8 across frame and reconnect boundaries: a character
 * split between two frames is emitted whole, with the later frame. Invalid bytes become
 * U+FFFD, as a terminal would show them.
 *
 * Most output is ASCII: a chunk of ASCII bytes, arriving while the stream's decoder holds
 * no unfinished character, is its own text, copied as Latin-1 (no UTF-8 decoding). The
 * decoder holds nothing after a chunk that ended with an ASCII byte, since an ASCII byte
 * ends any unfinished sequence (WHATWG UTF-8 decode), so that is tracked per stream.
 */
export class Utf8StreamDecoder {
  readonly #decoders: Record<OutputStream, TextDecoder> = {
    stdout: new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }),
    stderr: new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }),
  };
  readonly #settled: Record<OutputStream, boolean> = { stdout: true, stderr: true };
  #lastWasAscii = false;

  /**
   * True when the text of the last `decode` is ASCII bytes copied as they are (every
   * character below U+0080); false when it may hold any character.
   */
  get lastWasAscii(): boolean {
    return this.#lastWasAscii;
  }

  decode(stream: OutputStream, bytes: Uint8Array): string {
    this.#lastWasAscii = false;
    if (bytes.length === 0) return "";
    if (this.#settled[stream] && isAscii(bytes)) {
      this.#lastWasAscii = true;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
    }
    this.#settled[stream] = (bytes[bytes.length - 1] as number) < ASCII_LIMIT;
    return this.#decoders[stream].decode(bytes, { stream: true });
  }

  /** The text held back for an unfinished character, at the end of the output. */
  flush(stream: OutputStream): string {
    this.#lastWasAscii = false;
    this.#settled[stream] = true;
    return this.#decoders[stream].decode();
  }
}
