import { brandClass, brandInstance, ERROR_BRAND, hasBrand, isInstanceOfBrandedClass } from "./brand.js";
import type { ErrorDetails } from "./json.js";
import { redactSecrets } from "./redact/redact-secrets.js";
import { INSPECT_CUSTOM, inspectRedacted } from "./redacted-inspect.js";
import type { ErrorCode } from "./registry/codes.js";
import { type SerializedError, serializeError } from "./serialize/serialize-error.js";

export interface PaperclipErrorOptions {
  /** The failure that led to this one (ES2022 `cause`). */
  readonly cause?: unknown;
  /** Plain JSON data for the caller; string values are redacted when serialized. Never put secrets here. */
  readonly details?: ErrorDetails;
  /** Whether repeating the same operation may succeed. Defaults to `false`. */
  readonly retryable?: boolean;
  /** How long to wait before a retry, when the failure says so (for example `Retry-After`). */
  readonly retryAfterMs?: number;
}

/**
 * The base of every error the Paperclip packages throw on purpose. Branch on `code`,
 * never on `message`: codes are stable and documented in the registry
 * (`paperclip-errors explain CODE`).
 */
export class PaperclipError<Code extends ErrorCode = ErrorCode> extends Error {
  static {
    brandClass(this, "PaperclipError");
    // `util.inspect` and `console.log` print the redacted stack and the redacted JSON fields
    // (`details`, `cause`, …), never the raw `details` or a cause's raw message. Set on the
    // prototype, not declared: the public type stays what it was.
    Object.defineProperty(this.prototype, INSPECT_CUSTOM, {
      value(
        this: Error,
        depth: number | null,
        options: object,
        inspect?: (value: unknown, options?: object) => string,
      ) {
        return inspectRedacted(this, depth, options, inspect);
      },
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }

  declare readonly name: string;
  readonly code: Code;
  readonly details: ErrorDetails;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(code: Code, message: string, options: PaperclipErrorOptions = {}) {
    // Redacted here, not only in toJSON: the message is also in `stack`, `String(error)` and
    // every log line that prints the error. Registry messages have no secret and stay verbatim.
    super(
      typeof message === "string" ? redactSecrets(message) : message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? false;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    brandInstance(this, new.target);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isInstanceOfBrandedClass(this, value);
  }

  /**
   * Type guard that works across package copies: `true` for any Paperclip error,
   * or only for the given code(s).
   */
  static is<C extends ErrorCode>(value: unknown, code?: C | readonly C[]): value is PaperclipError<C> {
    if (!hasBrand(value, ERROR_BRAND)) return false;
    if (code === undefined) return true;
    const actual = (value as { code?: unknown }).code;
    return typeof code === "string" ? actual === code : (code as readonly unknown[]).includes(actual);
  }

  override toString(): string {
    return `${this.name} [${this.code}]: ${this.message}`;
  }

  /** The redacted JSON form; `deserializeError` turns it back into the right class. */
  toJSON(): SerializedError {
    return serializeError(this);
  }
}
