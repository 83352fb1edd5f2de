import { timingSafeEqual } from "node:crypto";
import type { EmulatorState } from "../emulator-state.js";
import type { MatchedRoute } from "../routes.js";

/** Why the gateway turns a request away, as the error response it sends. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers?: Record<string, string>;
  /** The request log notes an injected fault. */
  readonly fault?: "http-status";
}

/** Who asks: the peer address (the rate limit's key) and the `X-Api-Key` header as received. */
export interface Caller {
  readonly address: string | undefined;
  readonly apiKey: string | string[] | undefined;
}

export function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The order of checks follows a hosted API behind a gateway: shutdown, the per-IP rate
 * limit, then injected faults (they play the gateway or a failing backend), then the API
 * key. `null` admits the request to its route.
 */
export function admissionRefusal(
  state: Pick<EmulatorState, "closing" | "limiter" | "faults" | "apiKey">,
  caller: Caller,
  match: MatchedRoute,
): Refusal | null {
  if (state.closing) return { status: 503, code: "unavailable", message: "The emulator is shutting down." };
  const decision = state.limiter?.take(caller.address ?? "unknown");
  if (decision && !decision.allowed) {
    return {
      status: 429,
      code: "rate_limited",
      message: "Too many requests.",
      headers: { "retry-after": String(decision.retryAfterSeconds) },
    };
  }
  const injected = state.faults.arm(
    "http-status",
    match,
    (fault) => fault.route === "*" || fault.route === match.route,
  );
  if (injected?.fire()) {
    const headers: Record<string, string> =
      injected.fault.retryAfterSeconds === undefined
        ? {}
        : { "retry-after": String(injected.fault.retryAfterSeconds) };
    return {
      status: injected.fault.status,
      code: "injected",
      message: "Injected fault.",
      headers,
      fault: "http-status",
    };
  }
  if (!keyMatches(caller.apiKey, state.apiKey)) {
    return { status: 401, code: "unauthorized", message: "A valid X-Api-Key is required." };
  }
  return null;
}
