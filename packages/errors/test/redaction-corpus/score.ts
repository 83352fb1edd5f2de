import { OPERATOR_LINES } from "./operator-lines.js";
import { SECRET_LINES } from "./secret-lines.js";

export type Redactor = (text: string) => string;

export interface CorpusScore {
  readonly secretLines: number;
  /** Secret lines with every secret gone and every kept part still there. */
  readonly caught: number;
  readonly operatorLines: number;
  /** Operator lines the redactor changed. */
  readonly falsePositives: number;
  readonly missed: readonly { readonly label: string; readonly text: string; readonly output: string }[];
  readonly damaged: readonly { readonly label: string; readonly text: string; readonly output: string }[];
}

/** Runs the labelled corpus through `redact`: recall over secret lines, false positives over operator lines. */
export function scoreCorpus(redact: Redactor): CorpusScore {
  const missed: { label: string; text: string; output: string }[] = [];
  for (const entry of SECRET_LINES) {
    const output = redact(entry.text);
    const leaked = entry.secrets.some((secret) => output.includes(secret));
    const lost = (entry.keep ?? []).some((kept) => !output.includes(kept));
    if (leaked || lost) missed.push({ label: entry.label, text: entry.text, output });
  }
  const damaged: { label: string; text: string; output: string }[] = [];
  for (const entry of OPERATOR_LINES) {
    const output = redact(entry.text);
    if (output !== entry.text) damaged.push({ label: entry.label, text: entry.text, output });
  }
  return {
    secretLines: SECRET_LINES.length,
    caught: SECRET_LINES.length - missed.length,
    operatorLines: OPERATOR_LINES.length,
    falsePositives: damaged.length,
    missed,
    damaged,
  };
}
