import type { ErrorCode } from "./codes.js";
import { coreRegistry } from "./core.js";
import { createosRegistry } from "./createos.js";
import type { ErrorEntryDefinition } from "./entry.js";
import { runnerRegistry } from "./runner.js";
import { sandboxRegistry } from "./sandbox.js";

export interface ErrorEntry extends ErrorEntryDefinition {
  readonly code: ErrorCode;
}

const definitions: Readonly<Record<ErrorCode, ErrorEntryDefinition>> = {
  ...coreRegistry,
  ...sandboxRegistry,
  ...createosRegistry,
  ...runnerRegistry,
};

/** Every documented entry, sorted by code. */
export const errorRegistry: readonly ErrorEntry[] = Object.freeze(
  (Object.keys(definitions) as ErrorCode[])
    .sort()
    .map((code) => Object.freeze({ code, ...definitions[code] })),
);

const byCode = new Map<string, ErrorEntry>(errorRegistry.map((entry) => [entry.code, entry]));

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && byCode.has(value);
}

/** The entry for a code, or `undefined` when this registry does not document it. */
export function findErrorEntry(code: string): ErrorEntry | undefined {
  return byCode.get(code);
}
