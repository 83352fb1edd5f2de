import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  CODEX_PROVIDER_STATE_FILE,
  CODEX_PROVIDER_STATE_SCHEMA,
  loadCodexProviderState,
  readProviderProcessGeneration,
  readToolCallIds,
} from "./codex-provider-state.js";

describe("readProviderProcessGeneration", () => {
  it("reads upstream's name, else the name a state saved before 2026-12-06 used", () => {
    expect(readProviderProcessGeneration(3, undefined)).toBe(3);
    expect(readProviderProcessGeneration(undefined, 2)).toBe(2);
    expect(readProviderProcessGeneration(0, 5)).toBe(0);
  });

  it("refuses what is not a process generation, the server's maintenance reads it as one", () => {
    for (const [saved, legacy] of [
      [undefined, undefined],
      [-1, 0],
      [1.5, 1],
      ["1", 1],
      [undefined, null],
    ]) {
      const read = () => readProviderProcessGeneration(saved, legacy);
      expect(read).toThrow(expect.objectContaining({ code: "ERR_RUNNER_STATE_CORRUPT" }));
      expect(read).toThrow("providerProcessGeneration is not a process generation");
    }
  });
});

describe("readToolCallIds", () => {
  it("reads a saved list as it stands, none when a state saved before the list has none", () => {
    expect(readToolCallIds(["call_1", "call_2"], "abandonedToolCallIds")).toEqual(["call_1", "call_2"]);
    expect(readToolCallIds(undefined, "abandonedToolCallIds")).toEqual([]);
  });

  it("refuses what would match a late result by substring or throw on it, naming the field", () => {
    for (const broken of ["call_1call_2", { 0: "call_1" }, [7], ["call_1", ""], null]) {
      const read = () => readToolCallIds(broken, "settledToolCallIds");
      expect(read).toThrow(expect.objectContaining({ code: "ERR_RUNNER_STATE_CORRUPT" }));
      expect(read).toThrow("settledToolCallIds is not a list of call ids");
    }
  });
});

describe("loadCodexProviderState", () => {
  const saved = (fields: Record<string, unknown>): string => {
    const dir = tempDirForTest("runner-provider-state-");
    const state = {
      schema: CODEX_PROVIDER_STATE_SCHEMA,
      providerProcessGeneration: 0,
      pendingEvents: [],
      settledToolCallIds: [],
      ...fields,
    };
    writeFileSync(join(dir, CODEX_PROVIDER_STATE_FILE), `${JSON.stringify(state)}\n`, { mode: 0o600 });
    return dir;
  };

  it("checks the saved call id lists, reading an absent abandoned list as none", async () => {
    await expect(loadCodexProviderState(saved({}))).resolves.toMatchObject({ abandonedToolCallIds: [] });
    await expect(loadCodexProviderState(saved({ abandonedToolCallIds: "call_1" }))).rejects.toMatchObject({
      code: "ERR_RUNNER_STATE_CORRUPT",
    });
  });

  it("reads a state saved before 2026-12-06 under upstream's name, the old name dropped", async () => {
    const loaded = await loadCodexProviderState(
      saved({ providerProcessGeneration: undefined, processGeneration: 4 }),
    );
    expect(loaded).toMatchObject({ providerProcessGeneration: 4 });
    expect(loaded).not.toHaveProperty("processGeneration");
  });
});
