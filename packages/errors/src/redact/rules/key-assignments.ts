import { isWhitespace } from "../char-classes.js";
import { overlongValueEnd } from "../overlong-runs.js";
import { MAX_CREDENTIAL_LENGTH, readValue, type ValueSpan } from "../read-value.js";
import type { RedactionContext } from "../redaction-context.js";
import { RepeatSkipper } from "../repeat-skipper.js";
import { Rewriter } from "../rewriter.js";
import { isSecretValue, namesASecret } from "../secret-values.js";
import { UnquotedValueEnds } from "../unquoted-value-ends.js";
import type { WindowedSearch } from "../windowed-search.js";
import { FlagDashes, flagWordEnd } from "./flag-dashes.js";
import { judgeFlagsInRun } from "./flag-runs.js";
import { keptProseStart } from "./kept-prose.js";
import {
  keyPatterns,
  MAX_FLAG_KEY,
  MAX_FLAG_WORD_START,
  MAX_KEY_SIDE,
  MAX_LOOKAHEAD,
  MAX_WORD,
  mayFollowKeyWord,
  RUNS_PAST_REACH,
  sensitiveWords,
} from "./key-candidates.js";
import { judgeKeysInRun } from "./key-runs.js";
import { plainKeyStart, readPlain } from "./plain-assignments.js";
import {
  type Assignment,
  isCommandLike,
  MAX_OTHER_SCHEME,
  MAX_SCHEME_VALUE,
  readAssignment,
} from "./read-assignment.js";
import { followsRedacted, startsNewUnit } from "./redacted-values.js";
import type { Reach } from "./token-shape.js";

/**
 * Values of sensitive keys in `key=value`, `key: value`, JSON `"key": "value"` (escaped
 * JSON too), CLI `--key value` and bare `key value` forms: the key is kept, the value
 * redacted; quotes around the value are kept.
 */
export function redactKeyAssignments(text: string, context: RedactionContext): string {
  const { flagCandidate, keyCandidate } = keyPatterns();
  // Every key holds a sensitive word, and a flag's value redacted leaves its key: a text without
  // one has none, told by the search both passes then go on with (it keeps its last answer).
  const words = sensitiveWords(text, context);
  if (words.next(0) === null) return text;
  const afterFlags = text.includes("-") ? redactCandidates(text, flagCandidate, words, context) : text;
  const wordsAfterFlags = afterFlags === text ? words : sensitiveWords(afterFlags, context);
  return redactCandidates(afterFlags, keyCandidate, wordsAfterFlags, context);
}

/**
 * Where the redaction of a secret value ends: at the value's end, or at the end of its run when
 * the value runs past MAX_CREDENTIAL_LENGTH right after its key (`token=…`, as
 * redactOverlongValues does near a run's start): a dump holds no context to keep.
 */
function redactedEnd(
  text: string,
  assignment: Assignment,
  value: ValueSpan,
  valueEnds: UnquotedValueEnds,
  context: RedactionContext,
  reach: Reach,
): number {
  // Only a value near the bound can have been cut by it.
  if (value.quoted || value.end - value.start < MAX_CREDENTIAL_LENGTH / 2) return value.end;
  for (let index = assignment.keyEnd; index < value.start; index += 1) {
    if (isWhitespace(text.charCodeAt(index))) return value.end;
  }
  const runEnd = valueEnds.endFrom(value.start, assignment.inQuery, context);
  reach.upTo = Math.max(reach.upTo, runEnd + 1);
  return runEnd - value.start > MAX_CREDENTIAL_LENGTH
    ? overlongValueEnd(text, value.start, runEnd)
    : value.end;
}

// How near a candidate must follow the last one for the search to go on without the word search.
const DENSE = 256;

// How far a step reads past a flag's dash, at most: the word search from the dash reads a
// sensitive word in reach of it (MAX_FLAG_WORD_START, MAX_WORD), flagCandidate and flagWordEnd the
// key after the dash and the look-ahead after that key.
const FLAG_READS = MAX_FLAG_WORD_START + MAX_WORD + MAX_FLAG_KEY + MAX_LOOKAHEAD;
// How far a step reads past a sensitive word's start, at most: the word search and the key pattern.
const WORD_READS = MAX_WORD + MAX_LOOKAHEAD;
// How far readAssignment reads past where it says a value starts, or past a key that is no key, at
// most: another scheme and the word after it, a replacement already there; a key's quote, its
// separator or the `value="` of a configuration entry (within MAX_LOOKAHEAD). Its runs of blanks
// and backslashes are RUNS_PAST_REACH's.
const ASSIGNMENT_READS = MAX_OTHER_SCHEME + MAX_SCHEME_VALUE + MAX_LOOKAHEAD;

/**
 * Judges the key at each match of `candidates` (a sensitive word, or a flag's dash). `words`, the
 * sensitive words of `text`, say where to try: a flag's dash in reach of one, else the word itself,
 * so a repeated stretch without one (`-H ` a million times) is skipped, not scanned.
 */
function redactCandidates(
  text: string,
  candidates: RegExp,
  words: WindowedSearch,
  context: RedactionContext,
): string {
  const rewriter = new Rewriter(text, context.replacement);
  const repeats = new RepeatSkipper(text, rewriter, context, RUNS_PAST_REACH);
  const valueEnds = new UnquotedValueEnds(text);
  // A flag's match is its dash and the key follows it.
  const flags = candidates === keyPatterns().flagCandidate ? new FlagDashes(text, words) : null;
  const rightSide = flags ? MAX_FLAG_KEY : MAX_KEY_SIDE;
  const { keyCandidateAt } = keyPatterns();
  // Whether the last candidate was near where its search started: then the next one is searched
  // for directly, as the word search first would cost a second search per candidate.
  let dense = false;
  // Where the last word rejected by the word search started: the stretch since then, compared with
  // the one before it, tells a unit repeated from one that differs (startsNewUnit).
  let lastRejected = -1;
  let examinedUpTo = 0;
  // How far the last step read, for the repeat skipper: it judges one by one only the last steps of
  // a repetition, whose reads could leave it. Its default, a value's bound and more (6 Ki
  // characters), left hundreds of flags to judge at the end of `--pwd ` repeated, each slow before
  // V8 optimises this loop: more than the rest of the megabyte cost.
  const reach: Reach = { upTo: 0 };
  candidates.lastIndex = 0;
  for (;;) {
    // No key starts inside one already judged (a run of key characters too long for a key, the
    // key of a value that is kept): the search resumes after it, not at each word inside it.
    if (candidates.lastIndex < examinedUpTo) candidates.lastIndex = examinedUpTo;
    const resume = repeats.resume(candidates.lastIndex, examinedUpTo, reach.upTo);
    examinedUpTo += resume - candidates.lastIndex;
    candidates.lastIndex = resume;
    let wordStart: number;
    let wordEnd: number;
    if (flags) {
      wordStart = flags.next(candidates.lastIndex);
      if (wordStart === -1) break;
      candidates.lastIndex = wordStart + 1;
      reach.upTo = wordStart + FLAG_READS;
      wordEnd = flagWordEnd(text, candidates.lastIndex);
    } else {
      const from = candidates.lastIndex;
      if (dense) {
        const word = candidates.exec(text);
        if (word === null) break;
        wordStart = word.index;
        wordEnd = candidates.lastIndex;
        reach.upTo = wordStart + WORD_READS;
      } else {
        const next = words.next(from);
        if (next === null) break;
        // The key pattern is tried at the word only: from there, a native search would read on
        // through every word that is no key (`pwd pwd …`, a million of them), where a step per
        // word lets the repeat skipper skip them. A word that is no key's start moves the scan on
        // by one character: a later word may start inside it (` key` of `secret key`).
        keyCandidateAt.lastIndex = next.index;
        reach.upTo = next.index + WORD_READS;
        if (!mayFollowKeyWord(text, next.end) || !keyCandidateAt.test(text)) {
          context.steps += 1;
          candidates.lastIndex = next.index + 1;
          // Words close together before values redacted already, in units that differ (`--token
          // [REDACTED] -H x2 --token [REDACTED] -H x4 …`): the native search skips them all.
          dense =
            next.index - from <= DENSE &&
            followsRedacted(text, next.end, context.replacement) &&
            startsNewUnit(text, lastRejected, next.index);
          lastRejected = next.index;
          continue;
        }
        wordStart = next.index;
        wordEnd = keyCandidateAt.lastIndex;
        candidates.lastIndex = wordEnd;
      }
      dense = wordStart - from <= DENSE;
    }
    context.steps += 1;
    // A later word of a key already judged (`client_secret_token`) adds nothing.
    if (wordStart < examinedUpTo) continue;
    // Prose after a key's word (`secret manager for`) is kept, told by one native match: as
    // readAssignment and readValue would leave the scan, with no key or value read by hand.
    const proseStart = flags ? -1 : keptProseStart(text, wordStart, wordEnd);
    if (proseStart !== -1) {
      examinedUpTo = wordEnd;
      const proseReach = proseStart + ASSIGNMENT_READS + context.replacement.length;
      if (proseReach > reach.upTo) reach.upTo = proseReach;
      context.steps += proseStart - wordStart + 2;
      continue;
    }
    // The commonest shape first, in one match; every other is read step by step.
    const keyStart = flags ? wordStart : plainKeyStart(text, wordStart);
    const plain =
      keyStart === -1 ? null : readPlain(text, keyStart, wordEnd, rightSide, context, flags !== null);
    const assignment = plain ?? readAssignment(text, wordStart, wordEnd, rightSide, context, keyStart);
    if ("skipTo" in assignment) {
      // Comparisons, not Math.max: a call per step costs, until V8 optimises this loop.
      if (assignment.skipTo + ASSIGNMENT_READS > reach.upTo)
        reach.upTo = assignment.skipTo + ASSIGNMENT_READS;
      examinedUpTo = assignment.skipTo;
      continue;
    }
    examinedUpTo = assignment.keyEnd;
    // The fast path's answer, when it gave one, holds the value it read.
    const value =
      plain !== null && "value" in plain
        ? plain.value
        : readValue(text, assignment.valueStart, assignment.inQuery, context, valueEnds);
    const valueReach = assignment.valueStart + ASSIGNMENT_READS + context.replacement.length;
    if (valueReach > reach.upTo) reach.upTo = valueReach;
    if (value.readEnd > reach.upTo) reach.upTo = value.readEnd;
    const secret =
      isSecretValue(assignment.kind, assignment.form, value, context.replacement) &&
      !(!value.quoted && namesASecret(value.text) && isCommandLike(assignment));
    if (secret) {
      const end = redactedEnd(text, assignment, value, valueEnds, context, reach);
      rewriter.replace(value.start, end);
      candidates.lastIndex = Math.max(end, wordEnd);
      examinedUpTo = candidates.lastIndex;
    }
    // The same key or flag again right after its value (`key=1&key=2&…`, `--token v1 --token v2 …`):
    // judged in one loop.
    const run =
      plain === null || !("value" in plain)
        ? null
        : flags === null
          ? judgeKeysInRun(text, plain, keyStart, secret, rewriter, context)
          : judgeFlagsInRun(text, plain, wordStart, secret, rewriter, context);
    if (run !== null) {
      candidates.lastIndex = run.resumeAt;
      examinedUpTo = run.examinedUpTo;
      reach.upTo = run.valueStart + ASSIGNMENT_READS + context.replacement.length;
      dense = true;
    }
  }
  return rewriter.finish();
}
