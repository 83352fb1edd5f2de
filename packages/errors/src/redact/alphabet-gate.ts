import { repetitionEnd } from "./repetition-end.js";

// The characters read to learn a text's alphabet before it is checked natively: enough for a text
// that repeats a unit with numbers (`-H 'X-Id: <i>'`) to show every digit.
const SAMPLE = 1024;
// Checks of a text against its sampled alphabet kept compiled, by alphabet: a text's pieces and a
// process's texts mostly share a few.
const MAX_CACHED_CHECKS = 32;
const checks = new Map<string, RegExp>();
// The characters that identify a repeated unit at the text's start when they occur again.
const UNIT_PROBE = 16;

/** Strings of which a rule finds at least one in any text it changes (a key word, a prefix). */
export interface Triggers {
  readonly words: readonly string[];
  /** Whether a word is found in any letter case (`TOKEN` for `token`). */
  readonly caseless: boolean;
}

const isAsciiLetter = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 65 && code <= 90);

/** Whether every character of `word` is in `present` (in either case, for a caseless word). */
function fits(word: string, present: Uint8Array, caseless: boolean): boolean {
  for (let index = 0; index < word.length; index += 1) {
    const code = word.charCodeAt(index);
    if (code >= 128) return true;
    if (present[code] === 1) continue;
    if (caseless && isAsciiLetter(code) && present[code ^ 0x20] === 1) continue;
    return false;
  }
  return true;
}

/** A global pattern that finds a character outside `present` (all ASCII but those). */
function outsideCheck(present: Uint8Array): RegExp {
  let source = "";
  for (let code = 0; code < 128; code += 1) {
    if (present[code] === 1) source += `\\x${code.toString(16).padStart(2, "0")}`;
  }
  let check = checks.get(source);
  if (check === undefined) {
    if (checks.size >= MAX_CACHED_CHECKS) checks.clear();
    check = new RegExp(`[^${source}]`, "g");
    checks.set(source, check);
  }
  return check;
}

/**
 * Tells a rule whose every finding holds one of its trigger words that a text cannot hold any,
 * so it need not search (a text of numbers and one header name, searched for token prefixes, costs
 * a tenth of a rule's search). A text's alphabet is learnt from its start, then confirmed by one
 * native search for any other character, done only when some rule would be skipped. Replacements
 * bring their own characters: a rule after one that changed the text also allows those.
 */
export class AlphabetGate {
  // 1 for each ASCII character the text may hold; null until sampled, or when the text holds a
  // character past ASCII (whose case rules are not these) or one not in its sample.
  private present: Uint8Array | null | undefined;
  private confirmed = false;

  constructor(
    private readonly text: string,
    private readonly replacement: string,
  ) {}

  /**
   * Whether the text, as the rules so far left it, may hold one of `triggers`. Its alphabet is
   * confirmed (a native search of the text) only when `confirm` says the rule's own search costs
   * more; otherwise a text whose alphabet is not confirmed yet may hold any.
   */
  mayHold(triggers: Triggers, confirm: boolean): boolean {
    const present = this.sampled();
    if (present === null) return true;
    for (const word of triggers.words) if (fits(word, present, triggers.caseless)) return true;
    if (!this.confirmed) {
      if (!confirm) return true;
      if (!this.holdsOnly(present)) {
        this.present = null;
        return true;
      }
      this.confirmed = true;
    }
    return false;
  }

  /** A rule replaced something: the text may now hold the replacement's characters too. */
  replaced(): void {
    const present = this.sampled();
    if (present === null) return;
    for (let index = 0; index < this.replacement.length; index += 1) {
      const code = this.replacement.charCodeAt(index);
      if (code >= 128) {
        this.present = null;
        return;
      }
      present[code] = 1;
    }
  }

  /**
   * Whether the text holds no character outside `present`, which holds its sample's. A text that
   * repeats a unit of the sample from its start (`-p ` a million times) is checked past the
   * repetition only: comparing it costs a fraction of searching it.
   */
  private holdsOnly(present: Uint8Array): boolean {
    const { text } = this;
    if (text.length <= SAMPLE) return true;
    let checkedUpTo = 0;
    // A unit's period is where its start occurs again, within the sample (which then holds a unit).
    const again = text.slice(1, SAMPLE).indexOf(text.slice(0, UNIT_PROBE));
    if (again !== -1) {
      // Native comparisons, not counted as a rule's reads are (RedactionContext).
      checkedUpTo = repetitionEnd(text, 0, again + 1, { replacement: "", steps: 0 });
    }
    const check = outsideCheck(present);
    check.lastIndex = checkedUpTo;
    const outside = check.test(text);
    check.lastIndex = 0;
    return !outside;
  }

  private sampled(): Uint8Array | null {
    if (this.present !== undefined) return this.present;
    const present = new Uint8Array(128);
    const stop = Math.min(this.text.length, SAMPLE);
    for (let index = 0; index < stop; index += 1) {
      const code = this.text.charCodeAt(index);
      if (code >= 128) {
        this.present = null;
        return null;
      }
      present[code] = 1;
    }
    this.present = present;
    return present;
  }
}
