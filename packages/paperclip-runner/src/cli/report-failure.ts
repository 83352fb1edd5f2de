import { PaperclipError } from "@paperclipai/errors";
import { boundedRedactedDiagnostic } from "../diagnostics/bounded-redacted-diagnostic.js";
import { describeFailure, type FailureKind } from "../diagnostics/describe-failure.js";
import { persistRunnerDiagnostic } from "../diagnostics/persist-runner-diagnostic.js";

export interface FailureReport {
  /** `--diagnostics-directory`, when given. */
  readonly diagnosticsDirectory: string | undefined;
  /** Extra lines for the diagnostic (ignored flags...). */
  readonly context: readonly string[];
  readonly stderr: NodeJS.WritableStream;
}

/**
 * Reports a failure of the daemon: the redacted, bounded diagnostic goes to
 * stderr and, with a diagnostics directory, to `runnerd.stderr.log`. When
 * persisting fails, stderr gets that failure too, after the original one
 * (upstream printed only the second and lost the first).
 */
export async function reportFailure(kind: FailureKind, error: unknown, report: FailureReport): Promise<void> {
  const description = describeFailure(kind, error, report.context);
  report.stderr.write(asLines(boundedRedactedDiagnostic(description)));
  if (report.diagnosticsDirectory === undefined) return;
  try {
    await persistRunnerDiagnostic(report.diagnosticsDirectory, description);
  } catch (persistError) {
    const code = PaperclipError.is(persistError) ? ` [${persistError.code}]` : "";
    const message = persistError instanceof Error ? persistError.message : String(persistError);
    report.stderr.write(
      asLines(
        boundedRedactedDiagnostic(
          `paperclip-runnerd: could not persist the runner diagnostic: ${message}${code}`,
        ),
      ),
    );
  }
}

// A cut diagnostic ends in `…[truncated]`, not a newline: the next stderr line must not be glued to it.
function asLines(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
