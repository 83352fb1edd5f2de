import { TextDecoder } from "node:util";
import type { OutputStream } from "./output-frame.js";

/**
 * Decodes each output stream as UTF-8 across frame and reconnect boundaries: a character
 * split between two frames is emitted whole, with the later frame. Invalid bytes become
 * U+FFFD, as a terminal would show them.
 */
export class Utf8StreamDecoder {
  readonly #decoders: Record<OutputStream, TextDecoder> = {
    stdout: new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }),
    stderr: new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }),
  };

  decode(stream: OutputStream, bytes: Uint8Array): string {
    return this.#decoders[stream].decode(bytes, { stream: true });
  }

  /** The text held back for an unfinished character, at the end of the output. */
  flush(stream: OutputStream): string {
    return this.#decoders[stream].decode();
  }
}
