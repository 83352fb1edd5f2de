import { isAlive } from "@paperclipai/test-support";
import { expect } from "vitest";
import { type CommittedEvent, type DriverResult, providerPids } from "./codex-durable.js";

/** The run ended cleanly: no driver failure, no invalid frame, no provider process alive, exit 0. */
export function expectNothingLeft(result: DriverResult): void {
  expect(result.failure).toBeNull();
  expect(result.invalid).toEqual([]);
  expect(providerPids(result).filter(isAlive)).toEqual([]);
  expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
}

/** What started the provider a `provider_startup_ownership` diagnostic reports (`ensure`, `restore`). */
export const startupTrigger = (event: CommittedEvent): unknown =>
  (event.payload.startup as { trigger?: unknown } | undefined)?.trigger;
