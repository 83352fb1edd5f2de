import { createHash } from "node:crypto";
import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { dynamicTools, readAuthorizedTools } from "./authorized-tools.js";
import { semanticCanonicalJson, semanticContentDigest } from "./semantic-digest.js";

const operations = [
  {
    operationId: "paperclip_finish",
    version: 1,
    description: "Finish",
    inputSchema: { type: "object" },
    responseSchema: {},
  },
];
const set = (ops: unknown[], digest?: string) => ({
  schema: "paperclip.runner.authorized-tools.v1",
  schemaVersion: 1,
  catalogDigest: digest ?? `sha256:${createHash("sha256").update(semanticCanonicalJson(ops)).digest("hex")}`,
  operations: ops,
});

describe("authorized tools and the semantic digest", () => {
  it("binds a set whose catalogDigest matches, and projects it as Codex dynamic tools", () => {
    const tools = readAuthorizedTools(set(operations));
    expect(dynamicTools(tools)).toEqual([
      { name: "paperclip_finish", description: "Finish", inputSchema: { type: "object" } },
    ]);
  });

  it("refuses a digest that does not match and malformed names", () => {
    const refused = (value: unknown) => caughtSync(() => readAuthorizedTools(value)).message;
    expect(refused(set(operations, `sha256:${"0".repeat(64)}`))).toBe(
      "run.prepare tool contract rejected: authorized tool catalog digest does not match its operations",
    );
    expect(refused(set(operations, "sha256:00"))).toBe(
      "run.prepare tool contract rejected: authorized tool set requires a canonical sha256 catalog digest",
    );
    expect(refused({ ...set(operations), schema: "other" })).toBe(
      "run.prepare tool contract rejected: unsupported authorized tool-set contract",
    );
    expect(refused(set([operations[0], operations[0]]))).toBe(
      "run.prepare tool contract rejected: authorized tool names must be unique",
    );
    expect(caughtSync(() => readAuthorizedTools(set([{ ...operations[0], operationId: "-bad" }]))).code).toBe(
      "ERR_RUNNER_PROVIDER_CONFIG_INVALID",
    );
  });

  it("digests content redacted and key-sorted, as the control plane recomputes it", () => {
    const digest = (value: unknown) =>
      `sha256:${createHash("sha256")
        .update(value as string)
        .digest("hex")}`;
    expect(semanticContentDigest({ b: 1, a: "x" })).toBe(digest('{"a":"x","b":1}'));
    expect(semanticContentDigest({ apiKey: "k", body: "Bearer abcdefghijkl" })).toBe(
      digest('{"apiKey":"[REDACTED]","body":"[REDACTED]"}'),
    );
  });
});
