import { boundedMethod } from "./bounded-method.js";
import { MAX_DESCENDANT_THREADS } from "./codex-descendants.js";
import { noticeEvent } from "./codex-plan-notice-events.js";
import { notificationThreadId, notificationTurnId } from "./codex-thread-identity.js";
import { type ProviderEvent, providerEvent } from "./provider-event.js";

/** Upstream's notice for another thread's information (`unrelated_information`). */
export const UNRELATED_INFORMATION_NOTICE = "ignored unrelated provider information";
/** Upstream's words for a notification or request outside the root thread's active turn. */
export const OUTSIDE_IDENTITY = "Codex rejected an event outside the active execution identity";

/** Where the runner stands when a message arrives: the opened thread and its active turn. */
export interface ExpectedIdentity {
  readonly threadId: string | null;
  readonly turnId: string | null;
}

/** Pure: the thread and turn a state expects its provider's messages to name. */
export function expectedIdentity(state: {
  readonly threadId: string | null;
  readonly activeProviderTurnId: string | null;
}): ExpectedIdentity {
  return { threadId: state.threadId, turnId: state.activeProviderTurnId };
}

/** Pure: the identities upstream's diagnostics compare: the method, what was expected, what Codex named. */
export function identityFields(
  method: string,
  params: Record<string, unknown>,
  expected: ExpectedIdentity,
): Record<string, unknown> {
  return {
    method: boundedMethod(method),
    expectedThreadId: expected.threadId,
    expectedTurnId: expected.turnId,
    receivedThreadId: receivedId(notificationThreadId(params)),
    // An empty turn id is none (an empty thread id is repeated: upstream's asymmetry).
    receivedTurnId: notificationTurnId(params) === "" ? null : receivedId(notificationTurnId(params)),
  };
}

/** As upstream repeats a provider's id: a string, at most 256 characters. */
function receivedId(value: unknown): string | null {
  return typeof value === "string" ? Array.from(value).slice(0, 256).join("") : null;
}

/** Pure: a descendant's progress, reported and given no authority (`codex.identity.descendant`). */
export function descendantEvent(
  method: string,
  params: Record<string, unknown>,
  expected: ExpectedIdentity,
): ProviderEvent {
  return providerEvent("harness.diagnostic", 1, {
    code: "provider_notification_identity",
    classification: "descendant",
    ...identityFields(method, params, expected),
  });
}

/** Pure: the notice of another thread's ignored information. */
export function unrelatedInformationEvent(): ProviderEvent {
  return noticeEvent("warning", { message: UNRELATED_INFORMATION_NOTICE });
}

/**
 * Pure: upstream's diagnostic of a message outside the session's identity
 * (`codex.identity.invalid_authoritative`); the failed turn repeats it as its `error`.
 */
export function identityFailure(
  code: string,
  method: string,
  params: Record<string, unknown>,
  expected: ExpectedIdentity,
): Record<string, unknown> {
  return {
    code,
    classification: "invalid_authoritative",
    message: OUTSIDE_IDENTITY,
    recoverable: false,
    ...identityFields(method, params, expected),
  };
}

/** Upstream's words when the child-thread inventory is full (`codex.resource_capacity`). */
const DESCENDANT_CAPACITY_EXHAUSTED =
  "Codex reached the child-thread inventory limit. Reconcile child work before continuing in a fresh provider session.";

/** Pure: upstream's diagnostic of the full child-thread inventory (it names no turns). */
export function capacityFailure(
  method: string,
  params: Record<string, unknown>,
  expected: ExpectedIdentity,
): Record<string, unknown> {
  const {
    expectedTurnId: _expected,
    receivedTurnId: _received,
    ...failure
  } = identityFailure("provider_descendant_capacity_exhausted", method, params, expected);
  return {
    ...failure,
    classification: "resource_capacity",
    message: DESCENDANT_CAPACITY_EXHAUSTED,
    limit: MAX_DESCENDANT_THREADS,
  };
}
