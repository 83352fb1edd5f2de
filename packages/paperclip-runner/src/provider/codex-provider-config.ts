import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import { type ExecutableProviderKind, executableProviderKind, PROVIDER_DRIVERS } from "./provider-kind.js";

/** `run.prepare.payload.provider` for the Codex app-server facade (upstream's `CodexProviderConfig`). */
export interface CodexProviderConfig {
  readonly kind: ExecutableProviderKind;
  readonly provider: ExecutableProviderKind;
  readonly driver: string;
  readonly providerVersion: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly model: string | null;
  readonly approvalPolicy: "never";
  readonly externallySandboxed: boolean;
  readonly instructions: string | null;
  readonly includeSkillInstructions: boolean | null;
}

/** The OpenCode release upstream's proxy is qualified for. */
export const QUALIFIED_OPENCODE_VERSION = "1.18.29";
const MAX_ARGS = 64;
const MAX_ARG_BYTES = 4096;
const MAX_MODEL_LENGTH = 240;
const MAX_INSTRUCTIONS_BYTES = 1024 * 1024;

export function configInvalid(reason: string): RunnerError {
  return new RunnerError("ERR_RUNNER_PROVIDER_CONFIG_INVALID", `invalid provider configuration: ${reason}`, {
    details: { reason },
  });
}

/**
 * Reads and checks the provider descriptor of `run.prepare` before anything
 * starts (upstream's `CodexProviderConfig` validation): unknown keys are ignored,
 * the bounds and pairings are enforced, and `cwd` must be an existing absolute
 * directory.
 */
export function readCodexProviderConfig(value: unknown): CodexProviderConfig {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw configInvalid("payload.provider must be an object");
  }
  const raw = value as Record<string, unknown>;
  const kind = readKind(raw);
  const providerVersion = readProviderVersion(raw.providerVersion, kind);
  const command = requiredText(raw.command, "command");
  const args = readArgs(raw.args);
  const cwd = requiredText(raw.cwd, "cwd");
  if (!isAbsolute(cwd) || !isDirectory(cwd))
    throw configInvalid("cwd must be an existing absolute directory");
  const model = readModel(raw.model, kind);
  const approvalPolicy = raw.approvalPolicy ?? "never";
  if (approvalPolicy !== "never") {
    throw configInvalid("the initial Codex runner requires approvalPolicy=never; governed actions use PRP");
  }
  const instructions = readInstructions(raw.instructions);
  const skills = raw.includeSkillInstructions;
  return {
    kind,
    provider: kind,
    driver: PROVIDER_DRIVERS[kind],
    providerVersion,
    command,
    args,
    cwd,
    model,
    approvalPolicy: "never",
    externallySandboxed: raw.externallySandboxed === true,
    instructions,
    includeSkillInstructions: typeof skills === "boolean" ? skills : null,
  };
}

/** The kind (or `provider`), which `provider` and `driver` must match when given. */
function readKind(raw: Record<string, unknown>): ExecutableProviderKind {
  const kind = executableProviderKind(raw.kind ?? raw.provider);
  const provider = raw.provider ?? kind;
  if (provider !== kind) throw configInvalid(`provider ${String(provider)} does not match kind ${kind}`);
  const driver = raw.driver ?? PROVIDER_DRIVERS[kind];
  if (driver !== PROVIDER_DRIVERS[kind]) {
    throw configInvalid(`provider ${kind} requires driver ${PROVIDER_DRIVERS[kind]}`);
  }
  return kind;
}

function readProviderVersion(value: unknown, kind: ExecutableProviderKind): string {
  const providerVersion = requiredText(value, "providerVersion");
  if (kind === "opencode" && providerVersion !== QUALIFIED_OPENCODE_VERSION) {
    throw configInvalid(
      `opencode providerVersion must be the qualified release ${QUALIFIED_OPENCODE_VERSION}`,
    );
  }
  return providerVersion;
}

function readArgs(value: unknown): string[] {
  const args = value ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string")) {
    throw configInvalid("args must be an array of strings");
  }
  if (args.length > MAX_ARGS) throw configInvalid(`at most ${MAX_ARGS} args are allowed`);
  if (args.some((arg: string) => Buffer.byteLength(arg) > MAX_ARG_BYTES || arg.includes("\0"))) {
    throw configInvalid(`each arg must be at most ${MAX_ARG_BYTES} bytes without NUL`);
  }
  return [...args];
}

/** No model, or a bounded one; OpenCode's names its provider (`provider/model`). */
function readModel(value: unknown, kind: ExecutableProviderKind): string | null {
  const model = value ?? null;
  if (
    model !== null &&
    (typeof model !== "string" || model.length === 0 || model.length > MAX_MODEL_LENGTH)
  ) {
    throw configInvalid(`model must be a string of 1 to ${MAX_MODEL_LENGTH} characters`);
  }
  if (kind === "opencode" && model !== null && !/^[^/\s]+\/\S+$/.test(model)) {
    throw configInvalid("an opencode model must be provider/model");
  }
  return model;
}

function readInstructions(value: unknown): string | null {
  const instructions = value ?? null;
  if (
    instructions !== null &&
    (typeof instructions !== "string" || Buffer.byteLength(instructions) > MAX_INSTRUCTIONS_BYTES)
  ) {
    throw configInvalid("instructions must be a string of at most 1 MiB");
  }
  return instructions;
}

function requiredText(value: unknown, name: string): string {
  if (typeof value !== "string" || value.length === 0 || value.includes("\0")) {
    throw configInvalid(`${name} must be a non-empty string`);
  }
  return value;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
