import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import { type ExecutableProviderKind, PROVIDER_DRIVERS } from "./provider-kind.js";
import { hasControlCharacter, invalidType, sortedKeys } from "./serde-shape.js";

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
const MAX_MODEL_BYTES = 240;
const MAX_PROVIDER_VERSION_BYTES = 120;
const MAX_PROVIDER_SESSION_ID_BYTES = 240;
const MAX_INSTRUCTIONS_BYTES = 1024 * 1024;

/** A check of this runner's own (beyond upstream's), worded as ours. */
export function configInvalid(reason: string): RunnerError {
  return upstreamConfigInvalid(`invalid provider configuration: ${reason}`);
}

/** A check upstream's runner makes, with upstream's own words (the server shows them as they are). */
export function upstreamConfigInvalid(message: string): RunnerError {
  return new RunnerError("ERR_RUNNER_PROVIDER_CONFIG_INVALID", message, { details: { reason: message } });
}

/** The fields upstream deserializes, in its struct's order, and the type each must have. */
const FIELDS: readonly {
  readonly name: string;
  readonly type: "string" | "path" | "strings" | "optionalString" | "boolean";
  readonly required: boolean;
}[] = [
  { name: "provider", type: "string", required: true },
  { name: "driver", type: "string", required: true },
  { name: "providerVersion", type: "string", required: true },
  { name: "command", type: "path", required: true },
  { name: "args", type: "strings", required: false },
  { name: "cwd", type: "string", required: true },
  { name: "model", type: "optionalString", required: false },
  { name: "providerSessionId", type: "optionalString", required: false },
  { name: "instructions", type: "string", required: false },
  { name: "approvalPolicy", type: "string", required: false },
  { name: "externallySandboxed", type: "boolean", required: false },
];

/** Pure: the type error `serde_json` reports for one field's value, or null when it reads. */
function fieldTypeError(type: (typeof FIELDS)[number]["type"], value: unknown): string | null {
  switch (type) {
    case "string":
      return typeof value === "string" ? null : invalidType(value, "a string");
    case "path":
      return typeof value === "string" ? null : invalidType(value, "path string");
    case "optionalString":
      return value === null || typeof value === "string" ? null : invalidType(value, "a string");
    case "boolean":
      return typeof value === "boolean" ? null : invalidType(value, "a boolean");
    case "strings": {
      if (!Array.isArray(value)) return invalidType(value, "a sequence");
      const wrong = value.find((item) => typeof item !== "string");
      return wrong === undefined ? null : invalidType(wrong, "a string");
    }
  }
}

/**
 * Pure: reads `payload.provider` as upstream's runner deserializes it (`CodexProviderConfig`):
 * a value of the wrong type (in key order), then the first missing required field, each as
 * `run.prepare provider is invalid: …`; keys it does not know are ignored (`kind` among them:
 * the executor was chosen before).
 */
function deserialize(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) throw upstreamConfigInvalid("run.prepare requires provider");
  const invalid = (reason: string) => upstreamConfigInvalid(`run.prepare provider is invalid: ${reason}`);
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalid(invalidType(value, "struct CodexProviderConfig"));
  }
  const raw = value as Record<string, unknown>;
  for (const key of sortedKeys(raw)) {
    const field = FIELDS.find((candidate) => candidate.name === key);
    const error = field === undefined ? null : fieldTypeError(field.type, raw[key]);
    if (error !== null) throw invalid(error);
  }
  const missing = FIELDS.find((field) => field.required && !Object.hasOwn(raw, field.name));
  if (missing !== undefined) throw invalid(`missing field \`${missing.name}\``);
  return raw;
}

const bytes = (text: string): number => Buffer.byteLength(text);

/**
 * Reads and checks the provider descriptor of `run.prepare` before anything
 * starts, as upstream's runner does (`CodexProviderConfig` and its `validate`):
 * the same checks in the same order, refused with upstream's own messages.
 */
export function readCodexProviderConfig(value: unknown): CodexProviderConfig {
  const raw = deserialize(value);
  const provider = raw.provider as string;
  const driver = raw.driver as string;
  if (!(provider === "codex" || provider === "opencode") || PROVIDER_DRIVERS[provider] !== driver) {
    throw upstreamConfigInvalid(
      "local runner provider must be codex through codex_app_server or opencode through opencode_server",
    );
  }
  const providerVersion = raw.providerVersion as string;
  if (providerVersion.trim() === "" || bytes(providerVersion) > MAX_PROVIDER_VERSION_BYTES) {
    throw upstreamConfigInvalid("Codex providerVersion is empty or oversized");
  }
  if (provider === "opencode" && providerVersion !== QUALIFIED_OPENCODE_VERSION) {
    throw upstreamConfigInvalid(
      `OpenCode providerVersion must equal the qualified ${QUALIFIED_OPENCODE_VERSION} release`,
    );
  }
  const externallySandboxed = raw.externallySandboxed === true;
  if (externallySandboxed && provider !== "codex") {
    throw upstreamConfigInvalid("external sandbox delegation is only supported by the Codex provider");
  }
  const command = raw.command as string;
  if (command === "") throw upstreamConfigInvalid("Codex command is required");
  const cwd = raw.cwd as string;
  if (!isAbsolute(cwd) || !isDirectory(cwd)) {
    throw upstreamConfigInvalid("Codex cwd must be an existing absolute directory");
  }
  const args = (raw.args ?? []) as string[];
  if (args.length > MAX_ARGS || args.some((arg) => bytes(arg) > MAX_ARG_BYTES || arg.includes("\0"))) {
    throw upstreamConfigInvalid("Codex arguments exceed the bounded launch contract");
  }
  const model = (raw.model ?? null) as string | null;
  if (model !== null && (model === "" || bytes(model) > MAX_MODEL_BYTES)) {
    throw upstreamConfigInvalid("Codex model is invalid");
  }
  if (provider === "opencode" && (model === null || !model.includes("/") || hasControlCharacter(model))) {
    throw upstreamConfigInvalid("OpenCode model must be a qualified provider/model identifier");
  }
  const sessionId = (raw.providerSessionId ?? null) as string | null;
  if (
    sessionId !== null &&
    (sessionId === "" || bytes(sessionId) > MAX_PROVIDER_SESSION_ID_BYTES || hasControlCharacter(sessionId))
  ) {
    throw upstreamConfigInvalid("Codex providerSessionId is invalid");
  }
  const instructions = (raw.instructions ?? null) as string | null;
  if (instructions !== null && bytes(instructions) > MAX_INSTRUCTIONS_BYTES) {
    throw upstreamConfigInvalid("Codex instructions exceed the 1 MiB limit");
  }
  if ((raw.approvalPolicy ?? "never") !== "never") {
    throw upstreamConfigInvalid(
      "the initial Codex runner requires approvalPolicy=never; governed actions use PRP",
    );
  }
  const skills = raw.includeSkillInstructions;
  return {
    kind: provider,
    provider,
    driver,
    providerVersion,
    command,
    args: [...args],
    cwd,
    model,
    approvalPolicy: "never",
    externallySandboxed,
    instructions,
    includeSkillInstructions: typeof skills === "boolean" ? skills : null,
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
