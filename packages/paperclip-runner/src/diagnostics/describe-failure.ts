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
 * The frames of a V8 stack, without its header. The header repeats the message, and
 * a multi-line message (a PEM block) would come back line by line, with no BEGIN
 * line left for the redaction to recognise: only `at ...` lines are kept.
 */
function stackFrames(stack: string): string[] {
  return stack
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("at "));
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
  try {
    return fullDescription(prefix, error, context);
  } catch (describeError) {
    // A thrown value can be hostile (a throwing `stack` getter, a revoked proxy): the report must still happen.
    const lines = [`${prefix}[the failure could not be described: ${safeText(describeError)}]`, ...context];
    return `${lines.join("\n")}\n`;
  }
}

function safeText(value: unknown): string {
  try {
    return value instanceof Error ? String(value.message) : String(value);
  } catch {
    return "unprintable value";
  }
}

function fullDescription(prefix: string, error: unknown, context: readonly string[]): string {
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
  if (error instanceof Error && !PaperclipError.is(error) && typeof error.stack === "string") {
    lines.push("stack:", ...stackFrames(error.stack).map((line) => `  ${line}`));
  }
  lines.push(...context);
  return `${lines.join("\n")}\n`;
}
