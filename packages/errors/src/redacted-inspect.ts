import { SerializeBudget } from "./serialize/serialize-budget.js";
import { type SerializedError, serializeError } from "./serialize/serialize-error.js";

/** Node's hook for `util.inspect`, and so for `console.log`; a registered symbol, no import of `node:util`. */
export const INSPECT_CUSTOM: unique symbol = Symbol.for("nodejs.util.inspect.custom") as never;

type Inspect = (value: unknown, options?: object) => string;

function safeGet(target: unknown, key: string): unknown {
  try {
    return typeof target === "object" && target !== null
      ? (target as Record<string, unknown>)[key]
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One error as `util.inspect` shows it, built from its redacted JSON: the stack (redacted; the
 * message in it too, for a cause that is not ours), then the other fields, with `cause` and
 * `errors` shown the same way. A cause written with a raw secret is never printed as it is.
 */
class RedactedErrorView {
  readonly #head: string;
  readonly #fields: Record<string, unknown>;

  constructor(error: unknown, json: SerializedError, depth: number) {
    const { name, message, cause, errors, ...fields } = json;
    const stack = safeGet(error, "stack");
    this.#head =
      typeof stack === "string" && stack.length > 0
        ? new SerializeBudget().text(stack)
        : `${name}: ${message}`;
    const view: Record<string, unknown> = { ...fields };
    if (cause !== undefined) view.cause = viewOf(safeGet(error, "cause"), cause, depth + 1);
    if (errors !== undefined) {
      const originals = safeGet(error, "errors");
      view.errors = errors.map((inner, index) =>
        viewOf(Array.isArray(originals) ? originals[index] : undefined, inner, depth + 1),
      );
    }
    this.#fields = view;
  }

  // `depth` is what is left of the caller's depth (options.depth is the caller's whole depth):
  // the fields are shown at the error's own level, as Node shows an error's own properties.
  [INSPECT_CUSTOM](depth: number | null, options: object, inspect?: Inspect): string {
    if (typeof inspect !== "function" || Object.keys(this.#fields).length === 0) return this.#head;
    if (typeof depth === "number" && depth < 0) return this.#head;
    return `${this.#head} ${inspect(this.#fields, { ...options, depth })}`;
  }
}

function viewOf(original: unknown, json: SerializedError, depth: number): unknown {
  // A non-error cause is shown as its JSON; an error as a view of its own (its stack first).
  if (json.name === "NonError" || depth > 64) return json;
  return new RedactedErrorView(original, json, depth);
}

/** What `util.inspect(error)` prints for a Paperclip error: redacted, as its JSON is. */
export function inspectRedacted(
  error: Error,
  depth: number | null,
  options: object,
  inspect: Inspect | undefined,
): string {
  return new RedactedErrorView(error, serializeError(error), 0)[INSPECT_CUSTOM](depth, options, inspect);
}
