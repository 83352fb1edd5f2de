import { inspect } from "node:util";
import { PaperclipError } from "@paperclipai/errors";

/** How the failure reached the top of the daemon. */
export type FailureKind = "error" | "uncaught exception" | "unhandled rejection";

const MAX_CAUSES = 8;

function messageOf(value: unknown): string {
  if (value instanceof Error) return value.message;
  return typeof value === "string"
    ? value
    : inspect(value, { depth: 4, breakLength: Number.POSITIVE_INFINITY });
}

function codeSuffix(value: unknown): string {
  return PaperclipError.is(value) ? ` [${value.code}]` : "";
}

/**
 * The diagnostic text of a failure, unredacted and unbounded (the caller runs
 * it through `boundedRedactedDiagnostic`). The first line keeps upstream's shape,
 * `paperclip-runnerd: ${error}`; then the code and details of a coded error,
 * the cause chain, the stack of anything unexpected, and the context lines
 * (for example the unknown flags that were ignored).
 */
export function describeFailure(kind: FailureKind, error: unknown, context: readonly string[] = []): string {
  const prefix = kind === "error" ? "paperclip-runnerd: " : `paperclip-runnerd: ${kind}: `;
  const lines = [`${prefix}${messageOf(error)}`];
  if (PaperclipError.is(error)) {
    lines.push(`code: ${error.code}`);
    if (Object.keys(error.details).length > 0) lines.push(`details: ${JSON.stringify(error.details)}`);
  }
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < MAX_CAUSES; depth += 1) {
    lines.push(`caused by: ${messageOf(cause)}${codeSuffix(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  if (error instanceof Error && !PaperclipError.is(error) && error.stack) {
    lines.push(
      "stack:",
      ...error.stack
        .split("\n")
        .slice(1)
        .map((line) => `  ${line.trim()}`),
    );
  }
  lines.push(...context);
  return `${lines.join("\n")}\n`;
}
