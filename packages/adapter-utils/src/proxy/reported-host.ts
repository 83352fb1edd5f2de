const MAX_REPORTED_HOST_LENGTH = 255;

// C0, DEL and C1: the parser passes bytes 0x80-0xff of a request-target or `Host` as
// U+0080-U+00FF, and U+009B (CSI) or U+009D (OSC) written to a UTF-8 terminal is an
// escape sequence, as ESC [ is.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * A target host as `onNetworkDecision` reports it when the proxy could not read it
 * canonically: the sandbox's own text, so cut to a hostname's length, with every control
 * character written as `\uXXXX`. The host process logs decisions (proxy.md's example
 * prints them to its terminal, the CLI's `--verbose` too), and the sandbox must not write
 * escape sequences there.
 */
export function reportedHost(raw: string): string {
  const cut = raw.length > MAX_REPORTED_HOST_LENGTH ? raw.slice(0, MAX_REPORTED_HOST_LENGTH) : raw;
  return cut.replace(
    CONTROL_CHARACTERS,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
