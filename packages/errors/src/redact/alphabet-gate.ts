import { repetitionEnd } from "./repetition-end.js";

// The characters read to learn a text's alphabet: enough for a text that repeats a unit with
// numbers (`-H 'X-Id: <i>'`) to show every digit.
const SAMPLE = 1024;
/**
 * The shortest text worth gating: below it, learning the alphabet and ruling out a rule's words
 * cost more than the rules' own searches, and in a short-lived process (a runner redacting each
 * event, a few hundred characters) the gate's loops run unoptimised, a third of the redaction.
 */
export const MIN_GATED_LENGTH = 4 * SAMPLE;
// The characters that identify a repeated unit at the text's start when they occur again.
const UNIT_PROBE = 16;
// What is known of an ASCII character in the text, as the rules so far left it (0: nothing yet).
const PRESENT = 1;
const ABSENT = 2;

/** Strings of which a rule finds at least one in any text it changes (a key word, a prefix). */
export interface Triggers {
  readonly words: readonly string[];
  /** Whether a word is found in any letter case (`TOKEN` for `token`). */
  readonly caseless: boolean;
}

const isAsciiLetter = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 65 && code <= 90);

// How many words of a trigger set hold each character: the commonest is looked for first, so a
// few native searches rule out a hundred prefixes.
const frequencies = new WeakMap<Triggers, Uint16Array>();
function frequencyIn(triggers: Triggers): Uint16Array {
  let counts = frequencies.get(triggers);
  if (counts === undefined) {
    counts = new Uint16Array(128);
    for (const word of triggers.words) {
      for (const code of new Set([...word].map((char) => char.charCodeAt(0)))) {
        if (code < 128) counts[code] = (counts[code] as number) + 1;
      }
    }
    frequencies.set(triggers, counts);
  }
  return counts;
}

/**
 * Tells a rule whose every finding holds one of its trigger words that a text cannot hold any,
 * so it need not search (a text of numbers and one header name, searched for token prefixes, costs
 * a tenth of a rule's search). A text's alphabet is learnt from its start; a character it lacks
 * there is looked for natively in the rest (past a repetition of the start, which holds only its
 * characters), once. A rule that replaced something brings the replacement's characters.
 */
export class AlphabetGate {
  // By ASCII code, 0 (not known yet), PRESENT or ABSENT; undefined until sampled, null when the
  // sample holds a character past ASCII (whose case rules are not these).
  private known: Uint8Array | null | undefined;
  // Where the text stops repeating its sampled start: a character the sample lacks is past it.
  private searchFrom = 0;

  constructor(
    private readonly text: string,
    private readonly replacement: string,
  ) {}

  /** Whether the text, as the rules so far left it, may hold one of `triggers`. */
  mayHold(triggers: Triggers): boolean {
    const known = this.sampled();
    if (known === null) return true;
    const counts = frequencyIn(triggers);
    for (const word of triggers.words) {
      if (!this.rulesOut(word, triggers.caseless, known, counts)) return true;
    }
    return false;
  }

  /** A rule replaced something: the text may now hold the replacement's characters too. */
  replaced(): void {
    const known = this.sampled();
    if (known === null) return;
    for (let index = 0; index < this.replacement.length; index += 1) {
      const code = this.replacement.charCodeAt(index);
      if (code >= 128) {
        this.known = null;
        return;
      }
      known[code] = PRESENT;
    }
  }

  /**
   * Whether a character of `word` is absent from the text: one already known to be, or else the
   * unknown one commonest in the word's set (by `counts`), searched for.
   */
  private rulesOut(word: string, caseless: boolean, known: Uint8Array, counts: Uint16Array): boolean {
    let best = -1;
    for (let index = 0; index < word.length; index += 1) {
      const code = word.charCodeAt(index);
      if (code >= 128) continue;
      const other = caseless && isAsciiLetter(code) ? code ^ 0x20 : code;
      const state = known[code] as number;
      const otherState = known[other] as number;
      if (state === ABSENT && otherState === ABSENT) return true;
      if (state === PRESENT || otherState === PRESENT) continue;
      if (best === -1 || (counts[code] as number) > (counts[best] as number)) best = code;
    }
    if (best === -1) return false;
    const other = caseless && isAsciiLetter(best) ? best ^ 0x20 : best;
    if (known[best] === 0) known[best] = this.holds(best) ? PRESENT : ABSENT;
    if (known[other] === 0) known[other] = this.holds(other) ? PRESENT : ABSENT;
    return known[best] === ABSENT && known[other] === ABSENT;
  }

  /** Whether the text holds `code`, which its sample lacks: a native search past the repetition. */
  private holds(code: number): boolean {
    return (
      this.searchFrom < this.text.length && this.text.includes(String.fromCharCode(code), this.searchFrom)
    );
  }

  private sampled(): Uint8Array | null {
    if (this.known !== undefined) return this.known;
    const { text } = this;
    const known = new Uint8Array(128);
    const stop = Math.min(text.length, SAMPLE);
    for (let index = 0; index < stop; index += 1) {
      const code = text.charCodeAt(index);
      if (code >= 128) {
        this.known = null;
        return null;
      }
      known[code] = PRESENT;
    }
    this.searchFrom = stop;
    // A unit's period is where its start occurs again, within the sample (which then holds a
    // unit): a text that repeats it holds only the sample's characters up to where it stops.
    const again = text.slice(1, SAMPLE).indexOf(text.slice(0, UNIT_PROBE));
    if (again !== -1) {
      // Native comparisons, not counted as a rule's reads are (RedactionContext).
      this.searchFrom = Math.max(stop, repetitionEnd(text, 0, again + 1, { replacement: "", steps: 0 }));
    }
    this.known = known;
    return known;
  }
}
