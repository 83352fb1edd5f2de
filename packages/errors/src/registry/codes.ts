import type { coreRegistry } from "./core.js";
import type { createosRegistry } from "./createos.js";
import type { runnerRegistry } from "./runner.js";
import type { sandboxRegistry } from "./sandbox.js";

export type CoreErrorCode = keyof typeof coreRegistry;
export type SandboxErrorCode = keyof typeof sandboxRegistry;
export type CreateosErrorCode = keyof typeof createosRegistry;
export type RunnerErrorCode = keyof typeof runnerRegistry;

/** Every code documented by this version of the registry. */
export type ErrorCode = CoreErrorCode | SandboxErrorCode | CreateosErrorCode | RunnerErrorCode;
