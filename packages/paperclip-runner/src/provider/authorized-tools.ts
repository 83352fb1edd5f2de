import { createHash } from "node:crypto";
import { configInvalid, upstreamConfigInvalid } from "./codex-provider-config.js";
import { semanticCanonicalJson } from "./semantic-digest.js";

/** One operation the control plane authorizes (`paperclip.runner.authorized-tools.v1`). */
export interface AuthorizedOperation {
  readonly operationId: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly responseSchema: Record<string, unknown>;
}

const TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,159}$/;
const MAX_TOOLS = 256;

/**
 * Pure: the authorized tool set of `run.prepare`, checked the way upstream binds
 * it: the schema, unique well-formed names, object input schemas, and the
 * `catalogDigest` recomputed over the operations (sorted by id, canonical JSON).
 */
export function readAuthorizedTools(value: unknown): readonly AuthorizedOperation[] {
  if (value === undefined || value === null) return [];
  const set = value as Record<string, unknown>;
  // Upstream's refusals of the set as a whole, with its words.
  const rejected = (reason: string) => upstreamConfigInvalid(`run.prepare tool contract rejected: ${reason}`);
  if (set.schema !== "paperclip.runner.authorized-tools.v1" || !Array.isArray(set.operations)) {
    throw rejected("unsupported authorized tool-set contract");
  }
  if (typeof set.catalogDigest !== "string" || !/^sha256:[0-9a-f]{64}$/.test(set.catalogDigest)) {
    throw rejected("authorized tool set requires a canonical sha256 catalog digest");
  }
  const operations = set.operations as Record<string, unknown>[];
  if (operations.length > MAX_TOOLS) throw rejected("authorized tool set exceeds the operation limit");
  const digest = `sha256:${createHash("sha256").update(semanticCanonicalJson(operations)).digest("hex")}`;
  if (set.catalogDigest !== digest)
    throw rejected("authorized tool catalog digest does not match its operations");
  const seen = new Set<string>();
  return operations.map((operation) => {
    const id = operation.operationId;
    if (typeof id === "string" && seen.has(id)) throw rejected("authorized tool names must be unique");
    if (typeof id !== "string" || !TOOL_NAME.test(id)) {
      throw configInvalid("authorized tool names must be [A-Za-z0-9][A-Za-z0-9_.:-]* of at most 160");
    }
    seen.add(id);
    if (operation.version !== 1) throw configInvalid(`authorized tool ${id} must be version 1`);
    if (typeof operation.description !== "string" || operation.description.length === 0) {
      throw configInvalid(`authorized tool ${id} needs a description`);
    }
    const inputSchema = operation.inputSchema;
    if (inputSchema === null || typeof inputSchema !== "object" || Array.isArray(inputSchema)) {
      throw configInvalid(`authorized tool ${id} needs an object input schema`);
    }
    const responseSchema = operation.responseSchema ?? {};
    return {
      operationId: id,
      description: operation.description,
      inputSchema: inputSchema as Record<string, unknown>,
      responseSchema: responseSchema as Record<string, unknown>,
    };
  });
}

/** Pure: the tools as Codex's `thread/start` takes them (`dynamicTools`). */
export function dynamicTools(tools: readonly AuthorizedOperation[]): Record<string, unknown>[] {
  return tools.map((tool) => ({
    name: tool.operationId,
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
}
