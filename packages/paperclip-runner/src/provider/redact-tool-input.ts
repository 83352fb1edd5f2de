import { boundedText } from "./bounded-text.js";

/**
 * Pure: a tool input as the runner hands it on (in `semantic_tool.input`, in its state file):
 * every string in it redacted and bounded as event text (`boundedText`), as upstream's runner
 * does before the control plane sees it (the server's handler gets a long string cut, with
 * `…[truncated]`). Keys and the input's shape are kept, so the input still answers its schema.
 */
export function redactToolInput(value: unknown): unknown {
  if (typeof value === "string") return boundedText(value);
  if (Array.isArray(value)) return value.map(redactToolInput);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, redactToolInput(child)]));
  }
  return value;
}
