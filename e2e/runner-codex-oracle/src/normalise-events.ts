/**
 * Two runners' committed PRP event streams, made comparable: ids are marked (and compared as a
 * one-to-one correspondence between the streams, so "the same id as before" is still checked),
 * times and process ids become markers, and what is left — event types, order, priorities,
 * payload fields — is compared as is.
 */

export interface PrpEventLike {
  readonly eventType: string;
  readonly priority?: number;
  readonly payload: unknown;
}

export interface NormalisedEvent {
  readonly eventType: string;
  readonly priority: number | null;
  readonly payload: unknown;
}

const ID_KEY = /(^id$|Id$|Ids$|^callId|digest$|Digest$|Fingerprint$|fingerprint$)/;
const VOLATILE_NUMBER_KEY =
  /^(processId|processGroupId|pid|durationMs|activeSeconds|attemptedProcessGeneration)$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/** Marks an id value: compared by correspondence, not by text. */
const ID_MARK = "<id>";

/** Normalises one stream: ids marked, times and volatile numbers masked, keys sorted. */
export function normaliseEvents(events: readonly PrpEventLike[]): NormalisedEvent[] {
  const visit = (value: unknown, key: string): unknown => {
    if (typeof value === "string") {
      if (ISO_TIME.test(value)) return "<time>";
      return ID_KEY.test(key) ? `${ID_MARK}${value}` : value;
    }
    if (typeof value === "number") return VOLATILE_NUMBER_KEY.test(key) ? "<number>" : value;
    if (Array.isArray(value)) return value.map((item) => visit(item, key));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((name) => [name, visit((value as Record<string, unknown>)[name], name)]),
      );
    }
    return value;
  };
  return events.map((event) => ({
    eventType: event.eventType,
    priority: event.priority ?? null,
    payload: visit(event.payload, ""),
  }));
}

/**
 * Every difference between two normalised streams, as readable lines (empty when they match).
 * The streams are aligned on event types first (longest common subsequence), so one missing or
 * extra event is reported as such and the events around it are still compared field by field.
 */
export function diffEventStreams(
  reference: readonly NormalisedEvent[],
  candidate: readonly NormalisedEvent[],
): string[] {
  const differences: string[] = [];
  const ids = new IdCorrespondence();
  for (const step of alignByType(reference, candidate)) {
    if (step.candidate === undefined) {
      differences.push(
        `${step.reference?.eventType}: missing in the candidate @ reference #${step.referenceIndex + 1}`,
      );
      continue;
    }
    if (step.reference === undefined) {
      differences.push(
        `${step.candidate.eventType}: extra, not in the reference @ candidate #${step.candidateIndex + 1}`,
      );
      continue;
    }
    const at = ` @ #${step.referenceIndex + 1}/#${step.candidateIndex + 1}`;
    if (step.reference.priority !== step.candidate.priority) {
      differences.push(
        `${step.reference.eventType}: priority ${step.reference.priority} vs ${step.candidate.priority}${at}`,
      );
    }
    for (const path of differingPaths(step.reference.payload, step.candidate.payload, "payload", ids)) {
      differences.push(`${step.reference.eventType}: ${path}${at}`);
    }
  }
  return differences;
}

/**
 * The kinds of difference in `differences`, without their positions (each once, in order): what
 * a list of known differences names, so that fixing one does not shift the others.
 */
export function differenceKinds(differences: readonly string[]): string[] {
  return [...new Set(differences.map((line) => line.replace(/ @ [^@]*$/, "")))];
}

interface AlignmentStep {
  readonly reference?: NormalisedEvent | undefined;
  readonly candidate?: NormalisedEvent | undefined;
  readonly referenceIndex: number;
  readonly candidateIndex: number;
}

/** Pairs events of equal type in order (a longest common subsequence); unpaired events stand alone. */
function alignByType(
  reference: readonly NormalisedEvent[],
  candidate: readonly NormalisedEvent[],
): AlignmentStep[] {
  const rows = reference.length;
  const columns = candidate.length;
  // lengths[i][j]: the longest common subsequence of reference[i..] and candidate[j..].
  const lengths = Array.from({ length: rows + 1 }, () => new Array<number>(columns + 1).fill(0));
  for (let i = rows - 1; i >= 0; i -= 1) {
    for (let j = columns - 1; j >= 0; j -= 1) {
      lengths[i]![j] =
        reference[i]!.eventType === candidate[j]!.eventType
          ? lengths[i + 1]![j + 1]! + 1
          : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const steps: AlignmentStep[] = [];
  let i = 0;
  let j = 0;
  while (i < rows || j < columns) {
    if (i < rows && j < columns && reference[i]!.eventType === candidate[j]!.eventType) {
      steps.push({ reference: reference[i], candidate: candidate[j], referenceIndex: i, candidateIndex: j });
      i += 1;
      j += 1;
    } else if (j >= columns || (i < rows && lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
      steps.push({ reference: reference[i], referenceIndex: i, candidateIndex: j });
      i += 1;
    } else {
      steps.push({ candidate: candidate[j], referenceIndex: i, candidateIndex: j });
      j += 1;
    }
  }
  return steps;
}

/** Ids of one stream paired one to one with ids of the other, as aligned events reveal them. */
class IdCorrespondence {
  private readonly forward = new Map<string, string>();
  private readonly backward = new Map<string, string>();

  /** Whether `want` and `got` may stand for the same id (recording the pair when both are new). */
  pair(want: string, got: string): boolean {
    const known = this.forward.get(want);
    const knownBack = this.backward.get(got);
    if (known === undefined && knownBack === undefined) {
      this.forward.set(want, got);
      this.backward.set(got, want);
      return true;
    }
    return known === got && knownBack === want;
  }
}

function differingPaths(want: unknown, got: unknown, path: string, ids: IdCorrespondence): string[] {
  if (isRecord(want) && isRecord(got)) {
    const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])].sort();
    return keys.flatMap((key) => {
      if (!(key in got)) return [`${path}.${key} missing`];
      if (!(key in want)) return [`${path}.${key} extra`];
      return differingPaths(want[key], got[key], `${path}.${key}`, ids);
    });
  }
  if (Array.isArray(want) && Array.isArray(got) && want.length === got.length) {
    return want.flatMap((item, index) => differingPaths(item, got[index], `${path}[${index}]`, ids));
  }
  if (isId(want) && isId(got)) {
    return ids.pair(want, got)
      ? []
      : [`${path} names another id than before (${clip(want)} vs ${clip(got)})`];
  }
  if (JSON.stringify(want) === JSON.stringify(got)) return [];
  return [`${path} ${clip(want)} vs ${clip(got)}`];
}

function isId(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(ID_MARK);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function clip(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
