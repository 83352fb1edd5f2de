import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";

// `-----BEGIN RSA PRIVATE KEY-----`, `-----BEGIN OPENSSH PRIVATE KEY-----`,
// `-----BEGIN PGP PRIVATE KEY BLOCK-----`: bounded words, so each header costs a bounded match.
const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]{1,16} ){0,4}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END (?:[A-Z0-9]{1,16} ){0,4}PRIVATE KEY(?: BLOCK)?-----/y;

/** A PEM private key block, from its BEGIN line to the matching END line, or to the end of an unterminated text. */
export function redactPemPrivateKeys(text: string, context: RedactionContext): string {
  // A rarer search than the dashes, which run through separators and flags.
  if (!text.includes("PRIVATE KEY")) return text;
  const rewriter = new Rewriter(text, context.replacement);
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin !== null; begin = PEM_BEGIN.exec(text)) {
    context.steps += 1;
    let end = text.length;
    let search = begin.index + begin[0].length;
    for (
      let found = text.indexOf("-----END ", search);
      found !== -1;
      found = text.indexOf("-----END ", search)
    ) {
      context.steps += found - search + 1;
      PEM_END.lastIndex = found;
      if (PEM_END.test(text)) {
        end = PEM_END.lastIndex;
        break;
      }
      search = found + 1;
    }
    if (end === text.length) context.steps += text.length - search;
    rewriter.replace(begin.index, end);
    PEM_BEGIN.lastIndex = end;
  }
  return rewriter.finish();
}
